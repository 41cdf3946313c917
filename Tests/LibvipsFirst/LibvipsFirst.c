// Starts libvips before the test runner's main, while the process has one thread.
//
// libvips's start-up writes VIPSHOME into the environment (vips_guess_prefix calls g_setenv
// when it is not set). Started lazily, by the first suite that makes a thumbnail, that write
// can reallocate the environment array while other suites, running in parallel, read it: Foundation's
// Process.run copying the environment to start ffmpeg, liborc looking up its temporary folder.
// Twice on CI the test process died that way (in memcpy under Process.run, and in liborc). The
// `shoebox` executable avoids it by starting libvips before it starts threads (serve, thumbnails);
// the test runner has no such moment, so this constructor makes one.

#include "LibvipsFirst.h"
#include "CVips.h"

static int startedFirst = 0;

__attribute__((constructor)) static void startLibvipsFirst(void) {
    // A machine without libvips leaves it unloaded; the suites that need it say so.
    startedFirst = shoebox_vips_load() == 0 && shoebox_vips_init("shoebox") == 0;
}

int shoebox_libvips_started_first(void) { return startedFirst; }
