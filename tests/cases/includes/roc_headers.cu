// hipify-py-flags: --roc
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <curand.h>
