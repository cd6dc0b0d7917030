// hipify-py-flags: --rocm 5.7
#include <hip/hip_runtime.h>
#include <hipblas.h>
#include <hiprand.h>
#include <hipfft.h>
