#include <hip/hip_runtime.h>

void f(void* d, const void* s, size_t n) {
  hipMemcpy(d, s, n, hipMemcpyKind::hipMemcpyHostToDevice);
}
