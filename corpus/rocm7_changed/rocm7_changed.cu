// rocm7_changed: CUDA code that ROCm 6.4 and 7.2 both compile, translated differently for each: the complex
// cuBLAS functions on cuComplex (hipblasCgemm_v2/hipblasCdotc_v2 on 6.4, where the plain names take
// hipblasComplex; the plain names on 7.x, which dropped hipBLAS's v1 API), the warp *_sync functions with a
// lane mask held in a variable (6.4 declares them only under HIP_ENABLE_WARP_SYNC_BUILTINS, 7.x by default;
// both take 64-bit masks), __syncwarp with a 32-bit mask (which 6.4 lacks and 7.x declares for 64-bit
// masks), warpSize read at run time in device code (a constant on 6.4, an object on 7.x), and a host memcpy
// relying on CUDA's runtime header for <string.h> (which ROCm 7's HIP runtime header no longer includes).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuComplex.h>
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
#define CUBLAS_CHECK(call)                                                                   \
  do {                                                                                      \
    cublasStatus_t st_ = (call);                                                            \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                     \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, (int)st_); \
      std::exit(1);                                                                         \
    }                                                                                       \
  } while (0)

#define IDX(i, j, ld) ((j) * (ld) + (i))  // column-major
constexpr int kGroup = 32;                // results per 32 threads: a warp, or half of a 64-lane wavefront
constexpr int kThreads = 64;              // every lane of a wavefront active, as HIP's lane-mask checks want

// per group of 32: the sum by xor shuffles (offsets below 32 stay within a group), and per thread whether its
// own lane's bit of a ballot says its neighbour is negative; the mask is held in a variable
__global__ void warp_votes(const int* in, int n, int* sums, int* votes, int* lanes) {
  __shared__ int staged[kThreads];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  unsigned mask = 0xffffffffu;
  staged[threadIdx.x] = v;
  __syncwarp(mask);
  int neighbour = staged[threadIdx.x ^ 1];
  for (int offset = kGroup / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(mask, v, offset);
  unsigned long long voted = __ballot_sync(mask, neighbour < 0);
  int lane = threadIdx.x % warpSize;  // read at run time: 32 or 64 lanes
  if (i < n) votes[i] = (int)((voted >> lane) & 1ull) == (neighbour < 0 ? 1 : 0);
  if (threadIdx.x % kGroup == 0) {
    sums[i / kGroup] = v;
    lanes[i / kGroup] = warpSize >= kGroup ? 1 : 0;
  }
}

int main() {
  const int n = 2048, blocks = n / kThreads, groups = n / kGroup;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = (int)((i * 53u) % 301) - (i % 5 == 0 ? 150 : 20);
  std::vector<int> sums_ref(groups, 0);
  long long negative_neighbours = 0;
  for (int i = 0; i < n; ++i) {
    sums_ref[i / kGroup] += host[i];
    negative_neighbours += host[i ^ 1] < 0;
  }
  const int m = 6, k = 5, nn = 4;
  std::vector<cuComplex> A(m * k), B(k * nn), C(m * nn, make_cuComplex(0.0f, 0.0f)), Cref(m * nn);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < m; ++i) A[IDX(i, j, m)] = make_cuComplex((float)((i + j) % 3 - 1), (float)((i * j) % 2));
  for (int j = 0; j < nn; ++j)
    for (int i = 0; i < k; ++i) B[IDX(i, j, k)] = make_cuComplex((float)((2 * i + j) % 3), (float)(j % 2) - 1.0f);
  double gemm_ref = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < nn; ++j) {
      cuComplex acc = make_cuComplex(0.0f, 0.0f);
      for (int p = 0; p < k; ++p) acc = cuCaddf(acc, cuCmulf(A[IDX(i, p, m)], B[IDX(p, j, k)]));
      Cref[IDX(i, j, m)] = acc;
      gemm_ref += cuCrealf(acc) * (i + 1) + cuCimagf(acc) * (j + 1);
    }
  cuComplex dot_ref = make_cuComplex(0.0f, 0.0f);  // conj(column 0 of A) . column 1 of A
  for (int i = 0; i < m; ++i) dot_ref = cuCaddf(dot_ref, cuCmulf(cuConjf(A[IDX(i, 0, m)]), A[IDX(i, 1, m)]));
  long long votes_ref = negative_neighbours;
  for (int g = 0; g < groups; ++g) votes_ref += sums_ref[g] * 2;
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("rocm7_changed: PASS checksum=%lld/%.1f/%.1f,%.1f\n", votes_ref, gemm_ref, cuCrealf(dot_ref),
              cuCimagf(dot_ref));
  return 0;
#endif

  int *din, *sums, *votes, *lanes;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&sums, groups * sizeof(int)));
  CHECK(cudaMalloc(&votes, n * sizeof(int)));
  CHECK(cudaMalloc(&lanes, groups * sizeof(int)));
  std::vector<int> staged(n);
  memcpy(staged.data(), host.data(), n * sizeof(int));  // <string.h> comes with CUDA's runtime header
  CHECK(cudaMemcpy(din, staged.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  warp_votes<<<blocks, kThreads>>>(din, n, sums, votes, lanes);
  CHECK(cudaGetLastError());

  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  cuComplex *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, A.size() * sizeof(cuComplex)));
  CHECK(cudaMalloc(&dB, B.size() * sizeof(cuComplex)));
  CHECK(cudaMalloc(&dC, C.size() * sizeof(cuComplex)));
  CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(cuComplex), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(cuComplex), cudaMemcpyHostToDevice));
  const cuComplex one = make_cuComplex(1.0f, 0.0f), zero = make_cuComplex(0.0f, 0.0f);
  CUBLAS_CHECK(cublasCgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, nn, k, &one, dA, m, dB, k, &zero, dC, m));
  cuComplex dot = make_cuComplex(0.0f, 0.0f);
  CUBLAS_CHECK(cublasCdotc(handle, m, dA, 1, dA + m, 1, &dot));
  CHECK(cudaMemcpy(C.data(), dC, C.size() * sizeof(cuComplex), cudaMemcpyDeviceToHost));

  std::vector<int> got_sums(groups), got_votes(n), got_lanes(groups);
  CHECK(cudaMemcpy(got_sums.data(), sums, groups * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_votes.data(), votes, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_lanes.data(), lanes, groups * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = cuCrealf(dot) == cuCrealf(dot_ref) && cuCimagf(dot) == cuCimagf(dot_ref);
  long long checksum = 0;
  for (int i = 0; i < n; ++i) {
    ok = ok && got_votes[i] == 1;
    checksum += host[i ^ 1] < 0;
  }
  for (int g = 0; g < groups; ++g) {
    ok = ok && got_sums[g] == sums_ref[g] && got_lanes[g] == 1;
    checksum += got_sums[g] * 2;
  }
  double gemm_sum = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < nn; ++j) {
      cuComplex c = C[IDX(i, j, m)], r = Cref[IDX(i, j, m)];
      ok = ok && cuCrealf(c) == cuCrealf(r) && cuCimagf(c) == cuCimagf(r);
      gemm_sum += cuCrealf(c) * (i + 1) + cuCimagf(c) * (j + 1);
    }
  CUBLAS_CHECK(cublasDestroy(handle));
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));
  CHECK(cudaFree(din));
  CHECK(cudaFree(sums));
  CHECK(cudaFree(votes));
  CHECK(cudaFree(lanes));
  if (!ok) {
    std::printf("rocm7_changed: FAIL checksum=%lld/%.1f/%.1f,%.1f\n", checksum, gemm_sum, cuCrealf(dot),
                cuCimagf(dot));
    return 1;
  }
  std::printf("rocm7_changed: PASS checksum=%lld/%.1f/%.1f,%.1f\n", checksum, gemm_sum, cuCrealf(dot),
              cuCimagf(dot));
  return 0;
}
