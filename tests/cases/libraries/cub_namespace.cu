#include <cub/cub.cuh>

using namespace cub;

template <int BLOCK>
__global__ void block_sum(const int* in, int* out) {
  using Reduce = cub::BlockReduce<int, BLOCK>;
  __shared__ typename Reduce::TempStorage tmp;
  int cub = in[threadIdx.x];  // a variable called cub is left alone
  int total = Reduce(tmp).Sum(cub);
  if (threadIdx.x == 0) *out = total;
}

void sum(const int* in, int* out, int n, void* tmp, size_t bytes) {
  cub::DeviceReduce::Sum(tmp, bytes, in, out, n);
}
