#include <cuda_runtime.h>

#if 0
void old_path(float* p) { cudaFree(p); }
#else
void new_path(float* p) { cudaFree(p); }
#endif
