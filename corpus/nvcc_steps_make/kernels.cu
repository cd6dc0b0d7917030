// nvcc_steps_make: the device code, compiled as relocatable device code (-dc) into a static library (nvcc -lib).
#include "steps.h"

__device__ int weight(int i) { return (i % 7) - 3; }

__global__ void weigh(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * weight(i);
}

bool weigh_on_device(const int* values, int* weighted, int n) {
  int *in = nullptr, *out = nullptr;
  if (cudaMalloc(&in, n * sizeof(int)) != cudaSuccess) return false;
  if (cudaMalloc(&out, n * sizeof(int)) != cudaSuccess) return false;
  cudaMemcpy(in, values, n * sizeof(int), cudaMemcpyHostToDevice);
  weigh<<<(n + 127) / 128, 128>>>(in, out, n);
  bool ok = cudaGetLastError() == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess;
  ok = ok && cudaMemcpy(weighted, out, n * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess;
  cudaFree(in);
  cudaFree(out);
  return ok;
}
