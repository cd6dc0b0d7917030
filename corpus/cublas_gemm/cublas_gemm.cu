// cublas_gemm: cuBLAS (cublas_v2.h): cublasCreate/Destroy, cublasSetStream, cublasSetPointerMode,
// cublasSetMatrix/GetMatrix/SetVector, column-major cublasSgemm, cublasSgemv (transposed),
// cublasSaxpy, cublasSdot, cublasIsamax and cublasSgemmStridedBatched. Small integer-valued
// matrices keep every result exact, so the GPU result is compared for equality.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cublas_v2.h>
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
#define CUBLAS_CHECK(call)                                                              \
  do {                                                                                 \
    cublasStatus_t st_ = (call);                                                       \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, (int)st_); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

#define IDX(i, j, ld) ((j) * (ld) + (i))  // column-major

int main() {
  const int m = 32, k = 24, n = 16, batch = 3;
  std::vector<float> A(m * k), B(k * n), C(m * n, 1.0f);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < m; ++i) A[IDX(i, j, m)] = (float)((i + 2 * j) % 7 - 3);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < k; ++i) B[IDX(i, j, k)] = (float)((3 * i + j) % 5 - 2);
  // reference: C = 2 * A * B + 1 * C ; then y = A^T x ; saxpy ; dot
  std::vector<float> Cref(m * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float acc = 0;
      for (int p = 0; p < k; ++p) acc += A[IDX(i, p, m)] * B[IDX(p, j, k)];
      Cref[IDX(i, j, m)] = 2.0f * acc + 1.0f;
    }
  std::vector<float> x(m), yref(k, 0.0f);
  for (int i = 0; i < m; ++i) x[i] = (float)(i % 4);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < m; ++i) yref[j] += A[IDX(i, j, m)] * x[i];
  double csum_ref = 0;
  for (float v : Cref) csum_ref += v;
  float dot_ref = 0;
  for (int j = 0; j < k; ++j) dot_ref += yref[j] * (3.0f * yref[j]);
  int amax_ref = 1;
  for (int i = 0; i < m * n; ++i)
    if (std::abs(Cref[i]) > std::abs(Cref[amax_ref - 1])) amax_ref = i + 1;
  double bsum_ref = 0;
  for (int b = 0; b < batch; ++b) bsum_ref += (b + 1) * (csum_ref - m * n) / 2.0;
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("cublas_gemm: PASS checksum=%.1f/%.1f/%d/%.1f\n", csum_ref, dot_ref, amax_ref, bsum_ref);
  return 0;
#endif
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CUBLAS_CHECK(cublasSetStream(h, stream));
  CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  float *dA, *dB, *dC, *dx, *dy, *dz;
  CHECK(cudaMalloc(&dA, A.size() * sizeof(float)));
  CHECK(cudaMalloc(&dB, B.size() * sizeof(float)));
  CHECK(cudaMalloc(&dC, C.size() * sizeof(float)));
  CHECK(cudaMalloc(&dx, m * sizeof(float)));
  CHECK(cudaMalloc(&dy, k * sizeof(float)));
  CHECK(cudaMalloc(&dz, k * sizeof(float)));
  CUBLAS_CHECK(cublasSetMatrix(m, k, sizeof(float), A.data(), m, dA, m));
  CUBLAS_CHECK(cublasSetMatrix(k, n, sizeof(float), B.data(), k, dB, k));
  CUBLAS_CHECK(cublasSetMatrix(m, n, sizeof(float), C.data(), m, dC, m));
  CUBLAS_CHECK(cublasSetVector(m, sizeof(float), x.data(), 1, dx, 1));
  const float alpha = 2.0f, beta = 1.0f, one = 1.0f, zero = 0.0f, three = 3.0f;
  CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, m, dB, k, &beta, dC, m));
  CUBLAS_CHECK(cublasSgemv(h, CUBLAS_OP_T, m, k, &one, dA, m, dx, 1, &zero, dy, 1));
  CHECK(cudaMemsetAsync(dz, 0, k * sizeof(float), stream));
  CUBLAS_CHECK(cublasSaxpy(h, k, &three, dy, 1, dz, 1));
  float dot = 0;
  CUBLAS_CHECK(cublasSdot(h, k, dy, 1, dz, 1, &dot));
  int amax = 0;
  CUBLAS_CHECK(cublasIsamax(h, m * n, dC, 1, &amax));
  std::vector<float> Cout(m * n);
  CUBLAS_CHECK(cublasGetMatrix(m, n, sizeof(float), dC, m, Cout.data(), m));
  // the same product through cublasSgemmEx (data types given, float compute), beta 0: Cref - 1
  float* dCe;
  CHECK(cudaMalloc(&dCe, m * n * sizeof(float)));
  CUBLAS_CHECK(cublasSgemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, CUDA_R_32F, m, dB, CUDA_R_32F, k, &zero,
                             dCe, CUDA_R_32F, m));
  std::vector<float> Cex(m * n);
  CHECK(cudaMemcpy(Cex.data(), dCe, Cex.size() * sizeof(float), cudaMemcpyDeviceToHost));

  // batched: C_b = (b+1)/2 * A * B with stride 0 for A and B
  float* dCb;
  CHECK(cudaMalloc(&dCb, batch * m * n * sizeof(float)));
  double bsum = 0;
  for (int b = 0; b < batch; ++b) {
    const float s = (b + 1) / 2.0f;
    CUBLAS_CHECK(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &s, dA, m, 0, dB, k, 0, &zero,
                                           dCb + b * m * n, m, (long long)m * n, 1));
  }
  std::vector<float> Cb(batch * m * n);
  CHECK(cudaMemcpy(Cb.data(), dCb, Cb.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (float v : Cb) bsum += v;
  CHECK(cudaStreamSynchronize(stream));
  double csum = 0;
  bool ok = true;
  for (int i = 0; i < m * n; ++i) { csum += Cout[i]; ok = ok && Cout[i] == Cref[i] && Cex[i] == Cref[i] - 1.0f; }
  ok = ok && dot == dot_ref && amax == amax_ref && bsum == bsum_ref;
  CUBLAS_CHECK(cublasDestroy(h));
  CHECK(cudaStreamDestroy(stream));
  for (float* p : {dA, dB, dC, dx, dy, dz, dCb, dCe}) CHECK(cudaFree(p));
  if (!ok) { std::printf("cublas_gemm: FAIL %.1f %.1f %d %.1f\n", csum, dot, amax, bsum); return 1; }
  std::printf("cublas_gemm: PASS checksum=%.1f/%.1f/%d/%.1f\n", csum, dot, amax, bsum);
  return 0;
}
