#include <cuda.h>

int first_device() {
  if (cuInit(0) != CUDA_SUCCESS) return -1;
  CUdevice dev;
  CUresult r = cuDeviceGet(&dev, 0);
  return r == CUDA_SUCCESS ? (int)dev : -1;
}
