#include <hip/hip_runtime.h>
const char* s = "never closed cudaFree
void f() { hipDeviceSynchronize(); }
