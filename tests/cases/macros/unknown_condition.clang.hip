// hipify-py-flags: --skip-excluded-preprocessor-conditional-blocks
#include <hip/hip_runtime.h>

// The regex engine cannot know whether NOT_DEFINED_HERE is defined by some header, so the
// branch counts as active and is translated; the clang engine knows and skips it
// (unknown_condition.clang.hip).
#ifdef NOT_DEFINED_HERE
void maybe(float* p) { cudaFree(p); }
#endif
