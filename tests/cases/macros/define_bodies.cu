#include <cuda_runtime.h>

#define ALLOC(ptr, n) cudaMalloc((void**)&(ptr), (n) * sizeof(*(ptr)))
#define COPY_IN(dst, src, n) \
  cudaMemcpy(dst, src, (n) * sizeof(*(src)), cudaMemcpyHostToDevice)
#define SYNC() cudaDeviceSynchronize()

void f(float* h) {
  float* d;
  ALLOC(d, 4);
  COPY_IN(d, h, 4);
  SYNC();
}
