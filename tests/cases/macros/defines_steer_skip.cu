// hipify-py-flags: --skip-excluded-preprocessor-conditional-blocks -D USE_CPU
#include <cuda_runtime.h>

#ifndef USE_CPU
void gpu(float* p) { cudaFree(p); }
#else
void cpu(float* p) { free(p); }
#endif
