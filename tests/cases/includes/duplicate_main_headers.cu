#include <cuda.h>
#include <cuda_runtime.h>
#include "cuda_runtime_api.h"
#include <vector>

CUresult init() { return cuInit(0); }
