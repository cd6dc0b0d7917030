#include <hip/hip_runtime.h>


#include <vector>

hipError_t init() { return hipInit(0); }
