#include <hipcub/hipcub.hpp>

#include <hip/hip_runtime.h>
#include "hipify_compat.h"

namespace cb = hipcub;

hipError_t sum(const int* in, int* out, int n, void* temp, size_t& bytes, hipStream_t stream) {
  using namespace hipcub;
  hipError_t e = HipcubDebug(DeviceReduce::Sum(temp, bytes, in, out, n, stream));
  if (e != hipSuccess) return e;
  CubDebugExit(hipStreamSynchronize(stream));
  return HipcubDebug(cb::DeviceReduce::Max(temp, bytes, in, out, n, stream));
}

template <int THREADS>
__global__ void block_sum(const int* in, int* out) {
  typedef cb::BlockReduce<int, THREADS> Reduce;
  __shared__ typename Reduce::TempStorage storage;
  int total = Reduce(storage).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = total;
}

template __global__ void block_sum<128>(const int*, int*);
