// A file-scope using-directive of CUB's namespace written before the project's own headers, which include the
// toolkit's fp16 and fp8 headers: the HIP counterpart of the directive must not change how those headers compile.
#include <cstdio>
#include <cub/cub.cuh>
using namespace cub;
#include "types.cuh"

#define CHECK(call)                                                                           \
  do {                                                                                        \
    cudaError_t err_ = (call);                                                                \
    if (err_ != cudaSuccess) {                                                                \
      std::printf("vendor_using_directive: FAIL %s: %s\n", #call, cudaGetErrorString(err_)); \
      return 1;                                                                               \
    }                                                                                         \
  } while (0)

constexpr int kThreads = 64;

__global__ void weighted_sum(const Sample* in, int* out) {
  using Reduce = BlockReduce<int, kThreads>;  // cub's, through the directive
  __shared__ typename Reduce::TempStorage tmp;
  int total = Reduce(tmp).Sum(weighted(in[threadIdx.x]));
  if (threadIdx.x == 0) *out = total;
}

int main() {
  int expected = 0;
  Sample host[kThreads];
  for (int i = 0; i < kThreads; ++i) {
    host[i].value = i + 1;
    host[i].weight = __float2half(static_cast<float>(i % 3 + 1));
    expected += (i + 1) * (i % 3 + 1);
  }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("vendor_using_directive: PASS checksum=%d\n", expected);
  return 0;
#else
  Sample* in = nullptr;
  int* out = nullptr;
  CHECK(cudaMalloc(&in, sizeof(host)));
  CHECK(cudaMalloc(&out, sizeof(int)));
  CHECK(cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice));
  weighted_sum<<<1, kThreads>>>(in, out);
  CHECK(cudaGetLastError());
  int got = 0;
  CHECK(cudaMemcpy(&got, out, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  if (got != expected) {
    std::printf("vendor_using_directive: FAIL sum=%d (expected %d)\n", got, expected);
    return 1;
  }
  std::printf("vendor_using_directive: PASS checksum=%d\n", got);
  return 0;
#endif
}
