#include <hip/hip_runtime.h>

void f(void** p) {
  hipMalloc(p, 4); // note
}
