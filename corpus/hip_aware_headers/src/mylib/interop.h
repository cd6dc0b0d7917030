// What the library's own HIP build needs: read only by HIP's compiler, whichever build that is.
#ifndef MYLIB_INTEROP_H
#define MYLIB_INTEROP_H

#ifdef MYLIB_USE_GPU
#if defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_runtime.h>
// HIP has no block-scope atomics: the device-wide ones order at least as much.
#define atomicAdd_block atomicAdd
#endif
#endif

#endif  // MYLIB_INTEROP_H
