#include <hip/hip_runtime.h>

int main() {
  int* data;
  hipMallocManaged(&data, 64 * sizeof(int));
  float* pinned;
  cudaMallocHost((void**)&pinned, 64 * sizeof(float));
  hipFreeHost(pinned);
  hipFree(data);
  hipDeviceReset();
}
