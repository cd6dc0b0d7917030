// hipify-py-flags: --miopen
#include <cudnn.h>

void make() {
  cudnnHandle_t h;
  cudnnCreate(&h);
}
