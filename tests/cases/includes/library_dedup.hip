#include <hipblas/hipblas.h>

#include <hip/hip_runtime.h>
