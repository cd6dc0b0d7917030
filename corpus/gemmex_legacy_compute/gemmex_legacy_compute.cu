// gemmex_legacy_compute: cublasGemmEx and cublasGemmStridedBatchedEx with the compute type given as a data type
// (CUDA_R_32F, CUDA_R_32I: the form cuBLAS's C++ overloads still accept and convert), on float and int8 matrices
// of small integers, so every result is exact and compared for equality.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                       \
  do {                                                                                                    \
    cudaError_t err_ = (call);                                                                            \
    if (err_ != cudaSuccess) {                                                                            \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      std::exit(1);                                                                                       \
    }                                                                                                     \
  } while (0)
#define CUBLAS_CHECK(call)                                                                      \
  do {                                                                                          \
    cublasStatus_t st_ = (call);                                                                \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                         \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, (int)st_);      \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

static const int N = 16;  // square, column-major; a multiple of 4 as int8 GEMMs want

template <typename T, typename Acc>
static void reference(const std::vector<T>& a, const std::vector<T>& b, std::vector<Acc>& c) {
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      Acc s = 0;
      for (int k = 0; k < N; ++k) s += (Acc)a[k * N + i] * (Acc)b[j * N + k];
      c[j * N + i] = s;
    }
}

int main() {
  std::vector<float> af(N * N), bf(N * N), cf_ref(N * N), cf(N * N);
  std::vector<int8_t> ai(N * N), bi(N * N);
  std::vector<int32_t> ci_ref(N * N), ci(N * N);
  for (int k = 0; k < N * N; ++k) {
    af[k] = (float)(k % 7 - 3);
    bf[k] = (float)(k % 5 - 2);
    ai[k] = (int8_t)(k % 9 - 4);
    bi[k] = (int8_t)(k % 11 - 5);
  }
  reference(af, bf, cf_ref);
  reference(ai, bi, ci_ref);
  double sum = 0;
  for (int k = 0; k < N * N; ++k) sum += cf_ref[k] + 2.0 * ci_ref[k];
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("gemmex_legacy_compute: PASS checksum=%.1f\n", sum);
  return 0;
#else
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  float *dAf, *dBf, *dCf;
  int8_t *dAi, *dBi;
  int32_t* dCi;
  CHECK(cudaMalloc((void**)&dAf, N * N * sizeof(float)));
  CHECK(cudaMalloc((void**)&dBf, N * N * sizeof(float)));
  CHECK(cudaMalloc((void**)&dCf, N * N * sizeof(float)));
  CHECK(cudaMalloc((void**)&dAi, N * N));
  CHECK(cudaMalloc((void**)&dBi, N * N));
  CHECK(cudaMalloc((void**)&dCi, N * N * sizeof(int32_t)));
  CHECK(cudaMemcpy(dAf, af.data(), N * N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dBf, bf.data(), N * N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dAi, ai.data(), N * N, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dBi, bi.data(), N * N, cudaMemcpyHostToDevice));
  const float one = 1.0f, zero = 0.0f;
  CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, dAf, CUDA_R_32F, N, dBf, CUDA_R_32F, N, &zero,
                            dCf, CUDA_R_32F, N, CUDA_R_32F, CUBLAS_GEMM_DEFAULT));
  const int32_t ione = 1, izero = 0;
  CUBLAS_CHECK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &ione, dAi, CUDA_R_8I, N, 0, dBi,
                                          CUDA_R_8I, N, 0, &izero, dCi, CUDA_R_32I, N, 0, 1, CUDA_R_32I,
                                          CUBLAS_GEMM_DEFAULT));
  CHECK(cudaMemcpy(cf.data(), dCf, N * N * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ci.data(), dCi, N * N * sizeof(int32_t), cudaMemcpyDeviceToHost));
  bool ok = true;
  double got = 0;
  for (int k = 0; k < N * N; ++k) {
    ok = ok && cf[k] == cf_ref[k] && ci[k] == ci_ref[k];
    got += cf[k] + 2.0 * ci[k];
  }
  cudaFree(dAf); cudaFree(dBf); cudaFree(dCf); cudaFree(dAi); cudaFree(dBi); cudaFree(dCi);
  cublasDestroy(h);
  if (!ok) { std::printf("gemmex_legacy_compute: FAIL checksum=%.1f\n", got); return 1; }
  std::printf("gemmex_legacy_compute: PASS checksum=%.1f\n", got);
  return 0;
#endif
}
