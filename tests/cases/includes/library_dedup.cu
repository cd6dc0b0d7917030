#include <cublas.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
