// A library adapting itself to HIP, built with its GPU option: see corpus.json.
#include <cstdio>

#include "mylib/algorithms.cuh"
#include "mylib/compiler.h"
#include "mylib/gpu_utils.hu"
#include "mylib/pinned.h"

MYLIB_HOST_DEVICE inline bool is_even(int v) { return v % 2 == 0; }

int main() {
  const int n = 1000;
  const int threads = 128;
  unsigned int expected = 0;
  int host[n];
  for (int i = 0; i < n; ++i) {
    host[i] = (i * 7 + 3) % 11;
    expected += is_even(host[i]);
  }
  // Which compiler read the library is no part of the output: the compiler header is here to be compiled.
  (void)MYLIB_NVCC_VERSION;
  (void)MYLIB_COMPILER;
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("hip_aware_headers: PASS checksum=%u\n", expected);
  return 0;
#else
  int* staging = nullptr;
  if (!MYLIB_CHECK(cudaMallocHost(&staging, sizeof(host)))) return 1;
  if (!mylib_is_pinned(staging)) {
    std::printf("hip_aware_headers: FAIL a page-locked buffer is not seen as one\n");
    return 1;
  }
  for (int i = 0; i < n; ++i) staging[i] = host[i];
  int* in = nullptr;
  unsigned int* count = nullptr;
  if (!MYLIB_CHECK(cudaMalloc(&in, sizeof(host))) || !MYLIB_CHECK(cudaMalloc(&count, sizeof(unsigned int)))) return 1;
  if (!MYLIB_CHECK(cudaMemcpy(in, staging, sizeof(host), cudaMemcpyHostToDevice))) return 1;
  if (!MYLIB_CHECK(cudaMemset(count, 0, sizeof(unsigned int)))) return 1;
  count_even<<<(n + threads - 1) / threads, threads>>>(in, n, count);
  if (!MYLIB_CHECK(cudaGetLastError())) return 1;
  unsigned int got = 0;
  if (!MYLIB_CHECK(cudaMemcpy(&got, count, sizeof(got), cudaMemcpyDeviceToHost))) return 1;
  MYLIB_CHECK(cudaFree(in));
  MYLIB_CHECK(cudaFree(count));
  MYLIB_CHECK(cudaFreeHost(staging));
  if (got != expected) {
    std::printf("hip_aware_headers: FAIL counted %u even values, expected %u\n", got, expected);
    return 1;
  }
  std::printf("hip_aware_headers: PASS checksum=%u\n", got);
  return 0;
#endif
}
