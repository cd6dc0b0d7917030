// hipify-py-flags: --path kernels.h
#ifndef KERNELS_H
#define KERNELS_H

#include <vector>

__global__ void scale(float* x, float a, int n);

inline void sync() { cudaDeviceSynchronize(); }

#endif  // KERNELS_H
