#include "shared.h"

__global__ void scale_kernel(int* data, int n, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = scaled(data[i], factor);
}

extern "C" int scale_on_device(int* host, int n, int factor) {
  int* d = nullptr;
  if (!CHECK_DEVICE(cudaMalloc(&d, n * sizeof(int)))) return 0;
  cudaMemcpy(d, host, n * sizeof(int), cudaMemcpyHostToDevice);
  scale_kernel<<<(n + 255) / 256, 256>>>(d, n, factor);
  bool ok = CHECK_DEVICE(cudaGetLastError());
  cudaMemcpy(host, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return ok;
}
