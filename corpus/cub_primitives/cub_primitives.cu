// cub_primitives: CUB device-wide algorithms with the two-call temp-storage idiom
// (cub::DeviceReduce::Sum/Max, cub::DeviceScan::ExclusiveSum/InclusiveSum,
// cub::DeviceRadixSort::SortPairs, cub::DeviceSelect::Flagged) and block-level collectives in a
// kernel (cub::BlockReduce, cub::BlockScan with TempStorage in shared memory, cub::WarpReduce).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>
#include <cub/cub.cuh>
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

template <int THREADS>
__global__ void block_ops(const int* in, int* block_sums, int* scanned, int* warp_sums) {
  using BlockReduce = cub::BlockReduce<int, THREADS>;
  using BlockScan = cub::BlockScan<int, THREADS>;
  using WarpReduce = cub::WarpReduce<int>;
  __shared__ typename BlockReduce::TempStorage red_tmp;
  __shared__ typename BlockScan::TempStorage scan_tmp;
  __shared__ typename WarpReduce::TempStorage warp_tmp[THREADS / 32];
  int i = blockIdx.x * THREADS + threadIdx.x;
  int v = in[i];
  int s = BlockReduce(red_tmp).Sum(v);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = s;
  int out;
  BlockScan(scan_tmp).ExclusiveSum(v, out);
  scanned[i] = out;
  int w = WarpReduce(warp_tmp[threadIdx.x / 32]).Sum(v);
  if (threadIdx.x % 32 == 0) warp_sums[i / 32] = w;
}

int main() {
  const int n = 1 << 12, threads = 128;
  std::vector<int> keys(n), vals(n), flags(n);
  for (int i = 0; i < n; ++i) { keys[i] = (i * 7919) % 1009; vals[i] = i; flags[i] = keys[i] % 3 == 0; }
  long long ref_sum = std::accumulate(keys.begin(), keys.end(), 0LL);
  int ref_max = *std::max_element(keys.begin(), keys.end());
  std::vector<int> excl(n), sorted_keys = keys;
  std::exclusive_scan(keys.begin(), keys.end(), excl.begin(), 0);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] < keys[b]; });
  unsigned long long ref_perm = 0;
  for (int i = 0; i < n; ++i) ref_perm = ref_perm * 1000003ULL + (unsigned)vals[order[i]];
  int ref_selected = 0;
  for (int f : flags) ref_selected += f;
  long long ref_block = 0;
  for (int b = 0; b < n / threads; ++b) {
    int acc = 0;
    for (int t = 0; t < threads; ++t) { ref_block += (long long)acc * (t % 5); acc += keys[b * threads + t]; }
  }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("cub_primitives: PASS checksum=%lld/%d/%lld/%016llx/%d/%lld\n", ref_sum, ref_max, (long long)excl[n - 1],
              ref_perm, ref_selected, ref_block);
  return 0;
#endif
  int *d_keys, *d_vals, *d_flags, *d_out, *d_keys_out, *d_vals_out, *d_num, *d_block_sums, *d_scanned, *d_warp;
  CHECK(cudaMalloc(&d_keys, n * sizeof(int)));
  CHECK(cudaMalloc(&d_vals, n * sizeof(int)));
  CHECK(cudaMalloc(&d_flags, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMalloc(&d_keys_out, n * sizeof(int)));
  CHECK(cudaMalloc(&d_vals_out, n * sizeof(int)));
  CHECK(cudaMalloc(&d_num, sizeof(int)));
  CHECK(cudaMalloc(&d_block_sums, (n / threads) * sizeof(int)));
  CHECK(cudaMalloc(&d_scanned, n * sizeof(int)));
  CHECK(cudaMalloc(&d_warp, (n / 32) * sizeof(int)));
  CHECK(cudaMemcpy(d_keys, keys.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vals, vals.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_flags, flags.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  long long* d_sum;
  CHECK(cudaMalloc(&d_sum, sizeof(long long)));
  void* tmp = nullptr;
  size_t tmp_bytes = 0;
  CHECK(cub::DeviceReduce::Sum(tmp, tmp_bytes, d_keys, d_sum, n));
  CHECK(cudaMalloc(&tmp, tmp_bytes));
  CHECK(cub::DeviceReduce::Sum(tmp, tmp_bytes, d_keys, d_sum, n));
  CHECK(cudaFree(tmp));
  tmp = nullptr;
  tmp_bytes = 0;
  CHECK(cub::DeviceReduce::Max(tmp, tmp_bytes, d_keys, d_out, n));
  CHECK(cudaMalloc(&tmp, tmp_bytes));
  CHECK(cub::DeviceReduce::Max(tmp, tmp_bytes, d_keys, d_out, n));
  CHECK(cudaFree(tmp));
  long long sum = 0;
  int mx = 0;
  CHECK(cudaMemcpy(&sum, d_sum, sizeof(sum), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&mx, d_out, sizeof(mx), cudaMemcpyDeviceToHost));

  tmp = nullptr;
  tmp_bytes = 0;
  CHECK(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, d_keys, d_out, n));
  CHECK(cudaMalloc(&tmp, tmp_bytes));
  CHECK(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, d_keys, d_out, n));
  CHECK(cudaFree(tmp));
  std::vector<int> scan(n);
  CHECK(cudaMemcpy(scan.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));

  tmp = nullptr;
  tmp_bytes = 0;
  CHECK(cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, d_keys, d_keys_out, d_vals, d_vals_out, n));
  CHECK(cudaMalloc(&tmp, tmp_bytes));
  CHECK(cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, d_keys, d_keys_out, d_vals, d_vals_out, n));
  CHECK(cudaFree(tmp));
  std::vector<int> sv(n);
  CHECK(cudaMemcpy(sv.data(), d_vals_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  unsigned long long perm = 0;
  for (int i = 0; i < n; ++i) perm = perm * 1000003ULL + (unsigned)sv[i];

  tmp = nullptr;
  tmp_bytes = 0;
  CHECK(cub::DeviceSelect::Flagged(tmp, tmp_bytes, d_vals, d_flags, d_out, d_num, n));
  CHECK(cudaMalloc(&tmp, tmp_bytes));
  CHECK(cub::DeviceSelect::Flagged(tmp, tmp_bytes, d_vals, d_flags, d_out, d_num, n));
  CHECK(cudaFree(tmp));
  int selected = 0;
  CHECK(cudaMemcpy(&selected, d_num, sizeof(int), cudaMemcpyDeviceToHost));

  block_ops<threads><<<n / threads, threads>>>(d_keys, d_block_sums, d_scanned, d_warp);
  CHECK(cudaGetLastError());
  std::vector<int> scanned(n), bsums(n / threads);
  CHECK(cudaMemcpy(scanned.data(), d_scanned, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bsums.data(), d_block_sums, bsums.size() * sizeof(int), cudaMemcpyDeviceToHost));
  long long block_chk = 0, bs_total = 0;
  for (int i = 0; i < n; ++i) block_chk += (long long)scanned[i] * ((i % threads) % 5);
  for (int v : bsums) bs_total += v;

  for (int* p : {d_keys, d_vals, d_flags, d_out, d_keys_out, d_vals_out, d_num, d_block_sums, d_scanned, d_warp})
    CHECK(cudaFree(p));
  CHECK(cudaFree(d_sum));
  bool ok = sum == ref_sum && mx == ref_max && scan == excl && perm == ref_perm && selected == ref_selected &&
            block_chk == ref_block && bs_total == ref_sum;
  if (!ok) { std::printf("cub_primitives: FAIL\n"); return 1; }
  std::printf("cub_primitives: PASS checksum=%lld/%d/%lld/%016llx/%d/%lld\n", sum, mx, (long long)scan[n - 1], perm,
              selected, block_chk);
  return 0;
}
