#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <hiprand/hiprand.h>
#include <hipfft/hipfft.h>
#include <hip/hip_fp16.h>
