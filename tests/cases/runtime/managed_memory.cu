#include <cuda_runtime.h>

int main() {
  int* data;
  cudaMallocManaged(&data, 64 * sizeof(int));
  float* pinned;
  cudaMallocHost((void**)&pinned, 64 * sizeof(float));
  cudaFreeHost(pinned);
  cudaFree(data);
  cudaDeviceReset();
}
