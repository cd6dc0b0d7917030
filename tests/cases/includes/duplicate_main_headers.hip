#include <hip/hip_runtime.h>

#include "hip/hip_runtime_api.h"
#include <vector>

hipError_t init() { return hipInit(0); }
