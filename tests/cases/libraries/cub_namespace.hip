#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>

using namespace hipcub;

template <int BLOCK>
__global__ void block_sum(const int* in, int* out) {
  using Reduce = hipcub::BlockReduce<int, BLOCK>;
  __shared__ typename Reduce::TempStorage tmp;
  int cub = in[threadIdx.x];  // a variable called cub is left alone
  int total = Reduce(tmp).Sum(cub);
  if (threadIdx.x == 0) *out = total;
}

void sum(const int* in, int* out, int n, void* tmp, size_t bytes) {
  hipcub::DeviceReduce::Sum(tmp, bytes, in, out, n);
}
