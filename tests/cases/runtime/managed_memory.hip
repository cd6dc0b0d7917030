#include <hip/hip_runtime.h>

int main() {
  int* data;
  hipMallocManaged(&data, 64 * sizeof(int));
  float* pinned;
  hipHostMalloc((void**)&pinned, 64 * sizeof(float));
  hipHostFree(pinned);
  hipFree(data);
  hipDeviceReset();
}
