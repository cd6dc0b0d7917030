// hipify-py-flags: --engine clang --skip-excluded-preprocessor-conditional-blocks
#include <hip/hip_runtime.h>

// With the skip flag, what the preprocessor skips stays as written and what it compiles is
// translated -- also the first line of a branch, right after the directive.
#define SOME_MACRO 1

void release(float* p, hipStream_t s) {
#if SOME_MACRO
  hipFree(p);
#elif OTHER_MACRO
  cudaFreeAsync(p, s);
#endif
#ifdef NOT_DEFINED_ANYWHERE
  cudaDeviceSynchronize();
#else
  hipStreamSynchronize(s);
#endif
}
