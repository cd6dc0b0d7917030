// runtime_cxx_forms: the CUDA runtime's C++ forms that HIP spells otherwise: cudaHostGetDevicePointer on a typed
// pointer (CUDA's template overload), cudaMalloc3DArray without its flags (a default argument), dim3 built from
// make_uint3 (a launch's grid and block, an assignment, an initializer), and the same calls in their C forms. A
// mapped pinned buffer is filled through its device pointer and a 3D array is copied in and out; integer data keeps
// every value exact.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                       \
  do {                                                                                                    \
    cudaError_t err_ = (call);                                                                            \
    if (err_ != cudaSuccess) {                                                                            \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      std::exit(1);                                                                                       \
    }                                                                                                     \
  } while (0)

static const unsigned N = 256;
static const int W = 8, H = 4, D = 2;

__global__ void fill(int* p, unsigned n, int base) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + (int)i;
}

int main() {
  long long ref = 0;
  for (unsigned i = 0; i < N; ++i) ref += 2 * (7 + (int)i);  // two fills of the mapped buffer
  for (int k = 0; k < W * H * D; ++k) ref += 3 * k;             // the 3D array's round trip
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("runtime_cxx_forms: PASS checksum=%lld\n", ref);
  return 0;
#else
  CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
  int* host = nullptr;
  CHECK(cudaHostAlloc(&host, N * sizeof(int), cudaHostAllocMapped));
  int* dev = nullptr;
  CHECK(cudaHostGetDevicePointer(&dev, host, 0));  // typed: CUDA's template overload
  dim3 grid;
  grid = make_uint3((N + 63) / 64, 1, 1);
  dim3 block = make_uint3(64, 1, 1);
  fill<<<grid, block>>>(dev, N, 7);
  CHECK(cudaDeviceSynchronize());
  long long got = 0;
  for (unsigned i = 0; i < N; ++i) got += host[i];
  void* untyped = nullptr;
  CHECK(cudaHostGetDevicePointer(&untyped, host, 0));  // the C form
  fill<<<make_uint3((N + 63) / 64, 1, 1), make_uint3(64, 1, 1)>>>((int*)untyped, N, 7);
  CHECK(cudaDeviceSynchronize());
  for (unsigned i = 0; i < N; ++i) got += host[i];

  cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
  cudaArray_t arr;
  CHECK(cudaMalloc3DArray(&arr, &desc, make_cudaExtent(W, H, D)));  // flags: CUDA's default, 0
  cudaArray_t other;
  CHECK(cudaMalloc3DArray(&other, &desc, make_cudaExtent(W, H, D), cudaArrayDefault));
  std::vector<int> in(W * H * D), out(W * H * D, -1);
  for (int k = 0; k < W * H * D; ++k) in[k] = 3 * k;
  cudaMemcpy3DParms up = {};
  up.srcPtr = make_cudaPitchedPtr(in.data(), W * sizeof(int), W, H);
  up.dstArray = arr;
  up.extent = make_cudaExtent(W, H, D);
  up.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&up));
  cudaMemcpy3DParms down = {};
  down.srcArray = arr;
  down.dstPtr = make_cudaPitchedPtr(out.data(), W * sizeof(int), W, H);
  down.extent = make_cudaExtent(W, H, D);
  down.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&down));
  bool ok = true;
  for (int k = 0; k < W * H * D; ++k) {
    ok = ok && out[k] == in[k];
    got += out[k];
  }
  CHECK(cudaFreeArray(arr));
  CHECK(cudaFreeArray(other));
  CHECK(cudaFreeHost(host));
  if (!ok || got != ref) {
    std::printf("runtime_cxx_forms: FAIL checksum=%lld\n", got);
    return 1;
  }
  std::printf("runtime_cxx_forms: PASS checksum=%lld\n", got);
  return 0;
#endif
}
