#include <cuda_runtime.h>
#include <cstdio>

int main() {
  float *d = nullptr;
  float h[16] = {0};
  cudaMalloc((void**)&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return 0;
}
