#include <hip/hip_runtime.h>
#include <cstdio>

int main() {
  float *d = nullptr;
  float h[16] = {0};
  hipMalloc((void**)&d, sizeof(h));
  hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice);
  hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost);
  hipFree(d);
  return 0;
}
