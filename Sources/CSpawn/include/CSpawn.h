#ifndef SHOEBOX_CSPAWN_H
#define SHOEBOX_CSPAWN_H

#include <sys/types.h>

// posix_spawn with what Foundation's Process does by hand, from glibc's own extensions (which the
// Swift importer does not see): the child keeps no descriptor of the parent's but its three
// streams (posix_spawn_file_actions_addclosefrom_np), and starts in its own folder
// (posix_spawn_file_actions_addchdir_np).
//
// Foundation's Process instead lists /proc/self/fd in the parent, and reads past the end of
// glibc's buffer for that listing once a process holds some 1,360 descriptors: a server with many
// clients, or a test holding a thousand sockets, could crash on starting a child.

/// Starts `path` (not searched for in PATH) with `argv` and `envp`, both NULL-terminated.
///
/// - `streams`: the parent's descriptors that become the child's standard input, output and
///   error; -1 opens /dev/null in their place. Any of them may be 0, 1 or 2.
/// - `directory`: the child's working folder, or NULL for the parent's.
///
/// The child has its own process group (as Foundation's children do), every signal at its default
/// action (an ignored SIGPIPE or SIGINT is not inherited) and none blocked.
///
/// Returns 0 and sets `*pid`, or an errno value: that of the failed exec too (ENOENT, EACCES).
int shoebox_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const int streams[3],
                  const char *directory);

/// The `si_code` and `si_status` of `pid`'s end, once it has ended, without reaping it (waitid
/// with WNOWAIT): a pid that is not reaped cannot be reused, so it can still be signalled safely.
/// Returns 0, or an errno value (ECHILD: no such child; EINTR is retried).
int shoebox_wait_without_reaping(pid_t pid, int *code, int *status);

#endif
