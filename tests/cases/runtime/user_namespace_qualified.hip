#include <hip/hip_runtime.h>
#include "mylib.h"

void f(void** p) {
  mylib::cudaMalloc(p, 4);
  ::hipMalloc(p, 4);
  hipFree(*p);
}
