// hipify-py-flags: --roc
#include <hip/hip_runtime.h>
#include <rocblas/rocblas.h>
#include <rocrand/rocrand.h>
