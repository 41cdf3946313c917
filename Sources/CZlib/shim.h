#ifndef SHOEBOX_CZLIB_SHIM_H
#define SHOEBOX_CZLIB_SHIM_H

#include <zlib.h>

/// zlib's inflateInit is a macro; this is it as a function Swift can call.
static inline int shoebox_inflate_init(z_streamp stream) {
    return inflateInit(stream);
}

#endif
