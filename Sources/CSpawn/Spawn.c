#define _GNU_SOURCE
#include "CSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

int shoebox_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const int streams[3],
                  const char *directory) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int sources[3];
    int copies[3] = {-1, -1, -1};
    int status = 0;

    // A stream from another of the three (stdout sent to the parent's stderr, say) is copied
    // above 2 first, so that the dup2 of an earlier stream cannot replace it.
    for (int stream = 0; stream < 3; stream++) {
        sources[stream] = streams[stream];
        if (streams[stream] >= 0 && streams[stream] <= 2 && streams[stream] != stream) {
            copies[stream] = fcntl(streams[stream], F_DUPFD_CLOEXEC, 3);
            if (copies[stream] < 0) {
                status = errno;
                goto close_copies;
            }
            sources[stream] = copies[stream];
        }
    }

    if ((status = posix_spawn_file_actions_init(&actions)) != 0) goto close_copies;
    if ((status = posix_spawnattr_init(&attributes)) != 0) goto destroy_actions;

    for (int stream = 0; stream < 3 && status == 0; stream++) {
        if (sources[stream] < 0) {
            status = posix_spawn_file_actions_addopen(&actions, stream, "/dev/null", stream == 0 ? O_RDONLY : O_WRONLY, 0);
        } else {
            // dup2 onto itself clears FD_CLOEXEC (glibc 2.29 and later).
            status = posix_spawn_file_actions_adddup2(&actions, sources[stream], stream);
        }
    }
    if (status == 0) status = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (status == 0 && directory != NULL) status = posix_spawn_file_actions_addchdir_np(&actions, directory);

    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    if (status == 0) status = posix_spawnattr_setsigmask(&attributes, &none);
    if (status == 0) status = posix_spawnattr_setsigdefault(&attributes, &all);
    if (status == 0) status = posix_spawnattr_setpgroup(&attributes, 0);
    if (status == 0) status = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    if (status == 0) status = posix_spawn(pid, path, &actions, &attributes, argv, envp);

    posix_spawnattr_destroy(&attributes);
destroy_actions:
    posix_spawn_file_actions_destroy(&actions);
close_copies:
    for (int stream = 0; stream < 3; stream++) {
        if (copies[stream] >= 0) close(copies[stream]);
    }
    return status;
}

int shoebox_wait_without_reaping(pid_t pid, int *code, int *status) {
    siginfo_t info = {0};
    while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) != 0) {
        if (errno != EINTR) return errno;
    }
    *code = info.si_code;
    *status = info.si_status;
    return 0;
}
