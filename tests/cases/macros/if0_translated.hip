#include <hip/hip_runtime.h>

#if 0
void old_path(float* p) { hipFree(p); }
#else
void new_path(float* p) { hipFree(p); }
#endif
