#include <cstdio>
#include <hip/hip_runtime.h>

int main() {
  int count = 0;
  hipGetDeviceCount(&count);
  for (int dev = 0; dev < count; ++dev) {
    hipDeviceProp_t prop;
    hipGetDeviceProperties(&prop, dev);
    std::printf("%d: %s (cc %d.%d)\n", dev, prop.name, prop.major, prop.minor);
  }
  hipSetDevice(0);
  return 0;
}
