#include <hip/hip_runtime.h>
#include <cudnn.h>

void make() {
  cudnnHandle_t h;
  cudnnCreate(&h);
}
