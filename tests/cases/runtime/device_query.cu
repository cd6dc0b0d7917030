#include <cstdio>
#include <cuda_runtime.h>

int main() {
  int count = 0;
  cudaGetDeviceCount(&count);
  for (int dev = 0; dev < count; ++dev) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, dev);
    std::printf("%d: %s (cc %d.%d)\n", dev, prop.name, prop.major, prop.minor);
  }
  cudaSetDevice(0);
  return 0;
}
