#ifndef TONIGHT_CZLIB_SHIM_H
#define TONIGHT_CZLIB_SHIM_H
#include <zlib.h>
/// inflateInit2 is a macro; Swift needs a function.
static inline int tonight_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}
#endif
