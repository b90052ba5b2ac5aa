#ifndef TONIGHT_CZSTD_SHIM_H
#define TONIGHT_CZSTD_SHIM_H
#define ZSTD_STATIC_LINKING_ONLY
#define ZDICT_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>
#include <zdict.h>

/// ZSTD_CONTENTSIZE_ERROR / UNKNOWN are macros Swift cannot import.
static inline int tonight_zstd_contentsize_known(unsigned long long v) {
    return v != ZSTD_CONTENTSIZE_ERROR && v != ZSTD_CONTENTSIZE_UNKNOWN;
}
#endif
