// hipify-py-flags: --path host.cpp
#include <vector>

void release(void* p) { cudaFree(p); }
