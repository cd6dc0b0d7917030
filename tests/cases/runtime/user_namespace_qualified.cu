#include <cuda_runtime.h>
#include "mylib.h"

void f(void** p) {
  mylib::cudaMalloc(p, 4);
  ::cudaMalloc(p, 4);
  cudaFree(*p);
}
