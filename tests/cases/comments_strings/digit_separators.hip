#include <hip/hip_runtime.h>

void f(void** p) {
  const long n = 1'000'000;
  hipMalloc(p, n);
  char q = '\'';
  hipFree(*p);
}
