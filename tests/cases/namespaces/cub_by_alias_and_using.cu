#include <cub/cub.cuh>
#include <cub/util_debug.cuh>
#include <cuda_runtime.h>

namespace cb = cub;

cudaError_t sum(const int* in, int* out, int n, void* temp, size_t& bytes, cudaStream_t stream) {
  using namespace cub;
  cudaError_t e = CubDebug(DeviceReduce::Sum(temp, bytes, in, out, n, stream));
  if (e != cudaSuccess) return e;
  CubDebugExit(cudaStreamSynchronize(stream));
  return CubDebug(cb::DeviceReduce::Max(temp, bytes, in, out, n, stream));
}

template <int THREADS>
__global__ void block_sum(const int* in, int* out) {
  typedef cb::BlockReduce<int, THREADS> Reduce;
  __shared__ typename Reduce::TempStorage storage;
  int total = Reduce(storage).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = total;
}

template __global__ void block_sum<128>(const int*, int*);
