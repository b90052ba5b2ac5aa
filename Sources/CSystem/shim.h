#ifndef TONIGHT_CSYSTEM_SHIM_H
#define TONIGHT_CSYSTEM_SHIM_H
// C library calls Swift's Glibc module does not export.
#ifdef __linux__
#include <malloc.h>
/// Returns freed heap to the system (glibc); 1 if memory was released.
static inline int tonight_malloc_trim(void) { return malloc_trim(0); }
#else
static inline int tonight_malloc_trim(void) { return 0; }
#endif
#endif
