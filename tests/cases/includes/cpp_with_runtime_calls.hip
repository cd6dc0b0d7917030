// hipify-py-flags: --path host.cpp

#include <hip/hip_runtime.h>
#include <vector>

void release(void* p) { hipFree(p); }
