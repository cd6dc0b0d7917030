// rocm7_apis: CUDA APIs whose HIP counterparts ROCm has only from 7.x on: cudaMemAdvise and
// cudaMemPrefetchAsync in CUDA 13's form (a cudaMemLocation; hipMemAdvise_v2/hipMemPrefetchAsync_v2),
// cudaLaunchKernelEx with a cudaLaunchConfig_t, cublasSetWorkspace (hipBLAS's workspace setter), the warp
// reductions __reduce_add_sync/__reduce_max_sync, __int2bfloat16_rn and __hadd_rn. Translated for ROCm 6.4,
// these are reported (HPY106: they appeared after the target), so the program needs ROCm 7.x.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
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
constexpr int kThreads = 32;              // one warp per block: a 32-lane group on any GPU

// x[i] = 3 * x[i] + i, launched through cudaLaunchKernelEx
__global__ void affine(int* x, int n, int a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = a * x[i] + i;
}

// per block: the sum and the maximum of its values, by the warp reduction builtins
__global__ void warp_reduce(const int* in, int n, int* sums, int* maxima) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  unsigned mask = __activemask();
  int s = __reduce_add_sync(mask, v);
  int m = __reduce_max_sync(mask, v);
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = s;
    maxima[blockIdx.x] = m;
  }
}

// small integers through bfloat16 (exact up to 256) and half additions rounded to nearest
__global__ void narrow(const int* in, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __nv_bfloat16 b = __int2bfloat16_rn(in[i] % 200);
    __half h = __hadd_rn(__float2half((float)(in[i] % 100)), __float2half(0.5f));
    out[i] = __bfloat162float(b) + __half2float(h);
  }
}

int main() {
  const int n = 4096, blocks = n / kThreads;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = (int)((i * 37u) % 1000) - 400;
  // references
  std::vector<int> affine_ref(n), sums_ref(blocks, 0), max_ref(blocks, -1000000);
  double narrow_ref = 0;
  for (int i = 0; i < n; ++i) {
    affine_ref[i] = 3 * host[i] + i;
    sums_ref[i / kThreads] += affine_ref[i];
    if (affine_ref[i] > max_ref[i / kThreads]) max_ref[i / kThreads] = affine_ref[i];
    narrow_ref += (double)(affine_ref[i] % 200) + (double)(affine_ref[i] % 100) + 0.5;
  }
  const int m = 16, k = 8, nn = 12;
  std::vector<float> A(m * k), B(k * nn), C(m * nn, 0.0f), Cref(m * nn, 0.0f);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < m; ++i) A[IDX(i, j, m)] = (float)((i + j) % 5 - 1);
  for (int j = 0; j < nn; ++j)
    for (int i = 0; i < k; ++i) B[IDX(i, j, k)] = (float)((2 * i + j) % 3 - 1);
  double gemm_ref = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < nn; ++j) {
      for (int p = 0; p < k; ++p) Cref[IDX(i, j, m)] += A[IDX(i, p, m)] * B[IDX(p, j, k)];
      gemm_ref += Cref[IDX(i, j, m)] * (double)((i + 1) * (j + 1));
    }
  long long checksum_ref = 0;
  for (int b = 0; b < blocks; ++b) checksum_ref += sums_ref[b] + max_ref[b];
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("rocm7_apis: PASS checksum=%lld/%.1f/%.1f\n", checksum_ref, narrow_ref, gemm_ref);
  return 0;
#endif
  int device = 0;
  CHECK(cudaGetDevice(&device));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  // managed memory, advised and prefetched in CUDA 13's form: the location is a cudaMemLocation
  int* x = nullptr;
  CHECK(cudaMallocManaged(&x, n * sizeof(int)));
  for (int i = 0; i < n; ++i) x[i] = host[i];
  cudaMemLocation on_device = {};
  on_device.type = cudaMemLocationTypeDevice;
  on_device.id = device;
  CHECK(cudaMemAdvise(x, n * sizeof(int), cudaMemAdviseSetPreferredLocation, on_device));
  CHECK(cudaMemPrefetchAsync(x, n * sizeof(int), on_device, 0, stream));

  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  config.numAttrs = 0;
  CHECK(cudaLaunchKernelEx(&config, affine, x, n, 3));
  CHECK(cudaGetLastError());

  int *sums = nullptr, *maxima = nullptr;
  float* narrowed = nullptr;
  CHECK(cudaMalloc(&sums, blocks * sizeof(int)));
  CHECK(cudaMalloc(&maxima, blocks * sizeof(int)));
  CHECK(cudaMalloc(&narrowed, n * sizeof(float)));
  warp_reduce<<<blocks, kThreads, 0, stream>>>(x, n, sums, maxima);
  narrow<<<blocks, kThreads, 0, stream>>>(x, n, narrowed);
  CHECK(cudaGetLastError());

  // cuBLAS with a workspace of the caller's
  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  CUBLAS_CHECK(cublasSetStream(handle, stream));
  void* workspace = nullptr;
  const size_t workspace_bytes = 4 << 20;
  CHECK(cudaMalloc(&workspace, workspace_bytes));
  CUBLAS_CHECK(cublasSetWorkspace(handle, workspace, workspace_bytes));
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, A.size() * sizeof(float)));
  CHECK(cudaMalloc(&dB, B.size() * sizeof(float)));
  CHECK(cudaMalloc(&dC, C.size() * sizeof(float)));
  CHECK(cudaMemcpyAsync(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice, stream));
  CHECK(cudaMemcpyAsync(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice, stream));
  const float one = 1.0f, zero = 0.0f;
  CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, nn, k, &one, dA, m, dB, k, &zero, dC, m));
  CHECK(cudaMemcpyAsync(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));

  std::vector<int> got_sums(blocks), got_max(blocks);
  std::vector<float> got_narrow(n);
  CHECK(cudaMemcpy(got_sums.data(), sums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_max.data(), maxima, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_narrow.data(), narrowed, n * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && x[i] == affine_ref[i];
  long long checksum = 0;
  double narrow_sum = 0, gemm_sum = 0;
  for (int b = 0; b < blocks; ++b) {
    ok = ok && got_sums[b] == sums_ref[b] && got_max[b] == max_ref[b];
    checksum += got_sums[b] + got_max[b];
  }
  for (int i = 0; i < n; ++i) narrow_sum += got_narrow[i];
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < nn; ++j) {
      ok = ok && C[IDX(i, j, m)] == Cref[IDX(i, j, m)];
      gemm_sum += C[IDX(i, j, m)] * (double)((i + 1) * (j + 1));
    }
  ok = ok && narrow_sum == narrow_ref;
  CUBLAS_CHECK(cublasDestroy(handle));
  CHECK(cudaFree(workspace));
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));
  CHECK(cudaFree(sums));
  CHECK(cudaFree(maxima));
  CHECK(cudaFree(narrowed));
  CHECK(cudaFree(x));
  CHECK(cudaStreamDestroy(stream));
  if (!ok) {
    std::printf("rocm7_apis: FAIL checksum=%lld/%.1f/%.1f\n", checksum, narrow_sum, gemm_sum);
    return 1;
  }
  std::printf("rocm7_apis: PASS checksum=%lld/%.1f/%.1f\n", checksum, narrow_sum, gemm_sum);
  return 0;
}
