// hipify-py-flags: --path kernels.h
#ifndef KERNELS_H
#define KERNELS_H

#include <hip/hip_runtime.h>

#include <vector>

__global__ void scale(float* x, float a, int n);

inline void sync() { hipDeviceSynchronize(); }

#endif  // KERNELS_H
