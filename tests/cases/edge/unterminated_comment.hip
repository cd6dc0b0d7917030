#include <hip/hip_runtime.h>
void f() { hipDeviceSynchronize(); }
/* never closed cudaFree
