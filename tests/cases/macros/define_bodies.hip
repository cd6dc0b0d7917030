#include <hip/hip_runtime.h>

#define ALLOC(ptr, n) hipMalloc((void**)&(ptr), (n) * sizeof(*(ptr)))
#define COPY_IN(dst, src, n) \
  hipMemcpy(dst, src, (n) * sizeof(*(src)), hipMemcpyHostToDevice)
#define SYNC() hipDeviceSynchronize()

void f(float* h) {
  float* d;
  ALLOC(d, 4);
  COPY_IN(d, h, 4);
  SYNC();
}
