#ifndef SHOEBOX_CZLIB_SHIM_H
#define SHOEBOX_CZLIB_SHIM_H

#include <zlib.h>

/// zlib's inflateInit is a macro; this is it as a function Swift can call.
static inline int shoebox_inflate_init(z_streamp stream) {
    return inflateInit(stream);
}

/// deflateInit2 (a macro) set up to write one gzip member (window bits 15 + 16) at `level`.
static inline int shoebox_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#endif
