// The kernels, as templates: each instance is compiled in a file of its own under instances/.
#pragma once
#include <cuda_runtime.h>

#define GI_IMPL_CUDA
#include "values.h"

template <int FACTOR>
__global__ void scale_rows(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * FACTOR;
}

template <int FACTOR>
void launch_scale(const float* in, float* out, int n, cudaStream_t stream) {
  scale_rows<FACTOR><<<(n + 63) / 64, 64, 0, stream>>>(in, out, n);
}

// A masked softmax as attention kernels write it: the masked scores are -INFINITY, the row's maximum is
// subtracted, exp(-inf) is 0. Also counts the infinite scores it was given (isinf): a compile that assumes no
// value is infinite would find none.
template <typename T>
__global__ void masked_softmax(const T* scores, const int* mask, T* out, int* infinite, int cols) {
  const int row = blockIdx.x;
  const T* x = scores + row * cols;
  T* y = out + row * cols;
  if (threadIdx.x != 0) return;
  T top = -INFINITY;
  for (int c = 0; c < cols; ++c) {
    const T v = mask[row * cols + c] ? -INFINITY : x[c];
    if (isinf(v)) atomicAdd(infinite, 1);
    top = fmaxf(top, v);
  }
  T total = 0;
  for (int c = 0; c < cols; ++c) {
    const T v = mask[row * cols + c] ? -INFINITY : x[c];
    y[c] = expf(v - top);
    total += y[c];
  }
  for (int c = 0; c < cols; ++c) y[c] /= total;
}

template <typename T>
void launch_softmax(const T* scores, const int* mask, T* out, int* infinite, int rows, int cols,
                    cudaStream_t stream) {
  masked_softmax<T><<<rows, 32, 0, stream>>>(scores, mask, out, infinite, cols);
}

extern template void launch_scale<2>(const float*, float*, int, cudaStream_t);
extern template void launch_scale<4>(const float*, float*, int, cudaStream_t);
extern template void launch_softmax<float>(const float*, const int*, float*, int*, int, int, cudaStream_t);
