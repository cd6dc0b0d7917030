#ifdef USE_DRIVER
#include <hip/hip_runtime.h>
#else
#include <hip/hip_runtime.h>
#endif
#include <hip/hip_runtime.h>

void f() { hipDeviceSynchronize(); }
