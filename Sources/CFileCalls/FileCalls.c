#define _GNU_SOURCE
#include "CFileCalls.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int shoebox_open_folder_at(int folder, const char *name) {
    return openat(folder, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

int shoebox_rename_noreplace(int fromFolder, const char *from, int toFolder, const char *to) {
    return renameat2(fromFolder, from, toFolder, to, RENAME_NOREPLACE);
}

int shoebox_open_unnamed(int folder, mode_t mode) {
    return openat(folder, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
}

int shoebox_name_unnamed(int file, int folder, const char *name) {
    // linkat with AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; the /proc link does not.
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", file);
    return linkat(AT_FDCWD, path, folder, name, AT_SYMLINK_FOLLOW);
}
