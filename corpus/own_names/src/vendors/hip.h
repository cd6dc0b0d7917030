// The project's own HIP build (OWN_USE_HIP, set by its HIP build files): CUDA names defined the HIP way.
#pragma once
#include <hip/hip_runtime.h>
#include <cstdlib>
#define cudaStream_t hipStream_t
#define cudaStreamCreate hipStreamCreate
#define __trap() do { abort(); } while (0)
typedef hipDeviceProp_t cudaDeviceProp;
static __device__ __forceinline__ int own_sad(int a, int b) { return abs(a - b); }
