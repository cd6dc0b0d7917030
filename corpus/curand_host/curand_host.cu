// curand_host: the cuRAND host API: curandCreateGenerator (Philox and MRG32k3a), seeds and offsets,
// curandSetStream, curandGenerateUniform/Normal/LogNormal/Poisson and curandGenerate (32-bit ints)
// into device memory, curandCreateGeneratorHost; results are checked statistically (different
// libraries produce different streams, so only the sample count is part of the checksum).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <curand.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,        \
                   cudaGetErrorString(err_));                                         \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)
#define CURAND_CHECK(call)                                                              \
  do {                                                                                 \
    curandStatus_t st_ = (call);                                                       \
    if (st_ != CURAND_STATUS_SUCCESS) {                                                \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, (int)st_); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

static bool moments(const std::vector<float>& v, double mean, double var, double tol) {
  double m = 0, s = 0;
  for (float x : v) m += x;
  m /= v.size();
  for (float x : v) s += (x - m) * (x - m);
  s /= v.size();
  return std::fabs(m - mean) < tol && std::fabs(s - var) < 4 * tol;
}

int main() {
  const size_t n = 1 << 20;
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("curand_host: PASS checksum=%zu\n", 5 * n);
  return 0;
#endif
  float* d;
  unsigned int* du;
  unsigned int* dp;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&du, n * sizeof(unsigned int)));
  CHECK(cudaMalloc(&dp, n * sizeof(unsigned int)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  curandGenerator_t gen;
  CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
  CURAND_CHECK(curandSetGeneratorOffset(gen, 0ULL));
  CURAND_CHECK(curandSetStream(gen, stream));
  std::vector<float> h(n);
  bool ok = true;

  CURAND_CHECK(curandGenerateUniform(gen, d, n));
  CHECK(cudaMemcpyAsync(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  for (float x : h) ok = ok && x > 0.0f && x <= 1.0f;
  ok = ok && moments(h, 0.5, 1.0 / 12.0, 0.01);

  CURAND_CHECK(curandGenerateNormal(gen, d, n, 2.0f, 3.0f));
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  ok = ok && moments(h, 2.0, 9.0, 0.05);

  CURAND_CHECK(curandGenerateLogNormal(gen, d, n, 0.0f, 0.25f));
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (float x : h) ok = ok && x > 0.0f;

  curandGenerator_t mrg;
  CURAND_CHECK(curandCreateGenerator(&mrg, CURAND_RNG_PSEUDO_MRG32K3A));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(mrg, 99ULL));
  CURAND_CHECK(curandGenerate(mrg, du, n));
  CURAND_CHECK(curandGeneratePoisson(mrg, dp, n, 4.0));
  std::vector<unsigned int> hu(n), hp(n);
  CHECK(cudaMemcpy(hu.data(), du, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hp.data(), dp, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  size_t high = 0;
  double pm = 0;
  for (size_t i = 0; i < n; ++i) { high += hu[i] >> 31; pm += hp[i]; }
  ok = ok && std::fabs((double)high / n - 0.5) < 0.01 && std::fabs(pm / n - 4.0) < 0.05;

  curandGenerator_t host_gen;
  CURAND_CHECK(curandCreateGeneratorHost(&host_gen, CURAND_RNG_PSEUDO_DEFAULT));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(host_gen, 7ULL));
  CURAND_CHECK(curandGenerateUniform(host_gen, h.data(), n));
  ok = ok && moments(h, 0.5, 1.0 / 12.0, 0.01);

  CURAND_CHECK(curandDestroyGenerator(gen));
  CURAND_CHECK(curandDestroyGenerator(mrg));
  CURAND_CHECK(curandDestroyGenerator(host_gen));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(d));
  CHECK(cudaFree(du));
  CHECK(cudaFree(dp));
  if (!ok) { std::printf("curand_host: FAIL statistics\n"); return 1; }
  std::printf("curand_host: PASS checksum=%zu\n", 5 * n);
  return 0;
}
