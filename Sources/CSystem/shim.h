#ifndef TONIGHT_CSYSTEM_SHIM_H
#define TONIGHT_CSYSTEM_SHIM_H
// C library calls Swift's Glibc module does not export, and compiler builtins Swift has no
// spelling for.
#ifdef __linux__
#include <malloc.h>
/// Returns freed heap to the system (glibc); 1 if memory was released.
static inline int tonight_malloc_trim(void) { return malloc_trim(0); }
#else
static inline int tonight_malloc_trim(void) { return 0; }
#endif
/// Asks the CPU to bring the cache line at `p` in for reading (a hint: never faults).
static inline void tonight_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }
#endif
