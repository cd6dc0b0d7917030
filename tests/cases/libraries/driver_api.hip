#include <hip/hip_runtime.h>

int first_device() {
  if (hipInit(0) != hipSuccess) return -1;
  hipDevice_t dev;
  hipError_t r = hipDeviceGet(&dev, 0);
  return r == hipSuccess ? (int)dev : -1;
}
