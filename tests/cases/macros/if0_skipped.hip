// hipify-py-flags: --skip-excluded-preprocessor-conditional-blocks
#include <hip/hip_runtime.h>

#if 0
void old_path(float* p) { cudaFree(p); }
#elif 1
void new_path(float* p) { hipFree(p); }
#else
void never(float* p) { cudaFree(p); }
#endif
