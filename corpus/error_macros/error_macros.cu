// error_macros: the error-handling idioms of real code: a CUDA_CHECK macro and an inline checker
// function wrapping every runtime call, cudaGetLastError/cudaPeekAtLastError after launches,
// cudaGetErrorName/cudaGetErrorString, a deliberately failing call (invalid device) that must be
// reported as cudaErrorInvalidDevice, device queries (cudaGetDeviceCount, cudaGetDeviceProperties,
// cudaDeviceGetAttribute, cudaDriverGetVersion, cudaRuntimeGetVersion), cudaSetDevice,
// cudaDeviceSetCacheConfig, cudaFuncGetAttributes, cudaDeviceReset.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CUDA_CHECK(expr)                                                                      \
  do {                                                                                        \
    const cudaError_t status_ = (expr);                                                       \
    if (status_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "CUDA error %s (%d) at %s:%d: %s\n", cudaGetErrorName(status_),  \
                   (int)status_, __FILE__, __LINE__, cudaGetErrorString(status_));            \
      std::exit(EXIT_FAILURE);                                                                \
    }                                                                                         \
  } while (false)

#define CUDA_CHECK_LAST() CUDA_CHECK(cudaGetLastError())

inline void gpu_assert(cudaError_t code, const char* file, int line, bool abort = true) {
  if (code != cudaSuccess) {
    std::fprintf(stderr, "gpu_assert: %s %s %d\n", cudaGetErrorString(code), file, line);
    if (abort) std::exit(code);
  }
}
#define GPU_ERRCHK(ans) \
  { gpu_assert((ans), __FILE__, __LINE__); }

__global__ void fill(int* p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

int main() {
  const int n = 1000;
  long long ref = 0;
  for (int i = 0; i < n; ++i) ref += 7 + i;
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("error_macros: PASS checksum=%lld/invalid-device-detected\n", ref);
  return 0;
#endif
  int count = 0, driver = 0, runtime = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  CUDA_CHECK(cudaDriverGetVersion(&driver));
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  if (count < 1) { std::printf("error_macros: FAIL no device\n"); return 1; }
  CUDA_CHECK(cudaSetDevice(0));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = 0, warp = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0));
  bool props_ok = prop.multiProcessorCount == sms && prop.warpSize == warp && prop.totalGlobalMem > 0 &&
                  std::strlen(prop.name) > 0 && prop.major > 0;
  std::fprintf(stderr, "device: %s, cc %d.%d, %d SMs, driver %d runtime %d\n", prop.name, prop.major, prop.minor,
               sms, driver, runtime);
  GPU_ERRCHK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
  cudaFuncAttributes fattr;
  GPU_ERRCHK(cudaFuncGetAttributes(&fattr, fill));

  // An error that must be reported, and must not be sticky.
  cudaError_t bad = cudaSetDevice(count + 7);
  // The name compared as real code compares it (a port's runtime names it its own way: the translation says so).
  bool detected = bad == cudaErrorInvalidDevice && std::strcmp(cudaGetErrorName(bad), "cudaErrorInvalidDevice") == 0;
  cudaGetLastError();  // clear

  int* d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  fill<<<(n + 127) / 128, 128>>>(d, n, 7);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaPeekAtLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  int h[n];
  CUDA_CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  long long sum = 0;
  for (int v : h) sum += v;
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaDeviceReset());
  if (!props_ok || !detected || sum != ref || fattr.maxThreadsPerBlock <= 0) {
    std::printf("error_macros: FAIL %d %d %lld\n", props_ok, detected, sum);
    return 1;
  }
  std::printf("error_macros: PASS checksum=%lld/invalid-device-detected\n", sum);
  return 0;
}
