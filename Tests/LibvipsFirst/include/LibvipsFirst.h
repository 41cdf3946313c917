#pragma once

/// Whether the constructor in LibvipsFirst.c loaded and started libvips before the test runner's
/// main (1), or found none to start (0).
int shoebox_libvips_started_first(void);
