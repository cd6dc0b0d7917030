#include <cuda_runtime.h>
#include <cuda.h>  // driver API too
