// hipify-py-flags: --engine clang --skip-excluded-preprocessor-conditional-blocks
#include <hip/hip_runtime.h>

// The parser knows which macros are defined: a branch on an undefined macro is excluded
// and left alone, a branch on a defined one is translated.
#define HAVE_STREAMS 1

#ifdef HAVE_STREAMS
void with_streams(hipStream_t* s) { hipStreamCreate(s); }
#endif

#ifdef NOT_DEFINED_ANYWHERE
void never_built(float* p) { cudaFree(p); }
#endif

#if defined(HAVE_STREAMS) && !defined(NOT_DEFINED_ANYWHERE)
void also_built() { hipDeviceSynchronize(); }
#endif
