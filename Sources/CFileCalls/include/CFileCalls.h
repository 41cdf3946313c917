#ifndef SHOEBOX_CFILECALLS_H
#define SHOEBOX_CFILECALLS_H

#include <sys/types.h>

// Linux file calls the Swift importer does not see (glibc declares them for _GNU_SOURCE only),
// for opening and moving files under a folder without following symbolic links.

/// A descriptor that names the folder `name` inside `folder` (O_PATH | O_DIRECTORY), refusing a
/// symbolic link (O_NOFOLLOW: ENOTDIR or ELOOP); -1 and errno otherwise.
int shoebox_open_folder_at(int folder, const char *name);

/// renameat2 with RENAME_NOREPLACE: 0, or -1 and errno (EEXIST when `to` exists; EINVAL or
/// ENOSYS where the file system or kernel cannot rename without replacing).
int shoebox_rename_noreplace(int fromFolder, const char *from, int toFolder, const char *to);

/// A new file without a name in `folder` (O_TMPFILE), open for reading and writing, with
/// `mode`: it vanishes if the process dies before `shoebox_name_unnamed`; -1 and errno otherwise
/// (EOPNOTSUPP or EISDIR where the file system has no unnamed files).
int shoebox_open_unnamed(int folder, mode_t mode);

/// Gives the unnamed file open at `file` the name `name` in `folder`, never replacing one that
/// exists (EEXIST): 0, or -1 and errno.
int shoebox_name_unnamed(int file, int folder, const char *name);

#endif
