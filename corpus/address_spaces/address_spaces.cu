// address_spaces: CUDA's address-space conversions (__cvta_generic_to_shared/local/global/constant and back), as
// CUDA documents them: converting to a space's address and back gives the same generic pointer; the shared (and
// local) addresses of two elements of one array differ by their distance in bytes; a global or constant pointer
// read through the converted-back pointer reads the same value. Each thread checks its own element; results do
// not depend on the warp size.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t err_ = (call);                                                                   \
    if (err_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));         \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

const int kThreads = 128;
__constant__ int kTable[kThreads];

// out[i]: the value read back through every conversion, plus the checks' failures times 1000000.
__global__ void convert(const int* in, int* out) {
  __shared__ int tile[kThreads];
  const int i = threadIdx.x;
  tile[i] = in[i] * 3;
  __syncthreads();
  int failures = 0;
  size_t s0 = __cvta_generic_to_shared(&tile[0]);
  size_t si = __cvta_generic_to_shared(&tile[i]);
  if (si - s0 != (size_t)i * sizeof(int)) ++failures;
  if ((int*)__cvta_shared_to_generic(si) != &tile[i]) ++failures;
  int local[2] = {in[i], in[i] + 1};
  size_t l0 = __cvta_generic_to_local(&local[0]);
  size_t l1 = __cvta_generic_to_local(&local[1]);
  if (l1 - l0 != sizeof(int)) ++failures;
  int* local_back = (int*)__cvta_local_to_generic(l1);
  size_t g = __cvta_generic_to_global(&in[i]);
  const int* global_back = (const int*)__cvta_global_to_generic(g);
  if (global_back != &in[i]) ++failures;
  size_t c = __cvta_generic_to_constant(&kTable[i]);
  const int* constant_back = (const int*)__cvta_constant_to_generic(c);
  if (constant_back != &kTable[i]) ++failures;
  out[i] = *(int*)__cvta_shared_to_generic(si) + *local_back + *global_back + *constant_back + failures * 1000000;
}

int main() {
  std::vector<int> in(kThreads), table(kThreads), ref(kThreads);
  unsigned long long h = 1469598103934665603ULL;
  for (int i = 0; i < kThreads; ++i) {
    in[i] = (i * 37) % 101 - 50;
    table[i] = i * i - 7;
    ref[i] = in[i] * 3 + (in[i] + 1) + in[i] + table[i];
    h = (h ^ (unsigned int)ref[i]) * 1099511628211ULL;
  }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("address_spaces: PASS checksum=%016llx\n", h);
  return 0;
#else
  int *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, kThreads * sizeof(int)));
  CHECK(cudaMalloc(&d_out, kThreads * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), kThreads * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyToSymbol(kTable, table.data(), kThreads * sizeof(int)));
  convert<<<1, kThreads>>>(d_in, d_out);
  CHECK(cudaGetLastError());
  std::vector<int> got(kThreads);
  CHECK(cudaMemcpy(got.data(), d_out, kThreads * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  for (int i = 0; i < kThreads; ++i) {
    if (got[i] != ref[i]) {
      std::printf("address_spaces: FAIL thread %d: %d, expected %d\n", i, got[i], ref[i]);
      return 1;
    }
  }
  std::printf("address_spaces: PASS checksum=%016llx\n", h);
  return 0;
#endif
}
