// cg_scan_partition: cooperative-groups scans and partitions checked against a CPU reference:
// cg::inclusive_scan / cg::exclusive_scan (cooperative_groups/scan.h) on thread_block_tile<32/16/8> and on
// coalesced groups, with the default sum, cg::greater, cg::bit_xor and a lambda on floats; cg::labeled_partition
// and cg::binary_partition of a tile, with the parts' ranks, sizes and meta-group ranks; coalesced_group
// ballot/any/all; cg::block_tile_memory with this_thread_block(scratch).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define cudaCheck(call)                                                                        \
  do {                                                                                         \
    cudaError_t status_ = (call);                                                              \
    if (status_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(status_)); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

constexpr int kScanBlock = 128;
constexpr int kScanN = 1024;
// Partition kernels run one 32-thread block per group of 32 values: a coalesced group is then the same set of
// threads whatever the hardware's warp width.
constexpr int kPartBlock = 32;
constexpr int kPartN = 256;
constexpr int kScanOutputs = 5;
constexpr int kPartOutputs = 10;

__global__ void tile_scans(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(block);
  cg::thread_block_tile<16> tile16 = cg::tiled_partition<16>(block);
  cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];
  int* o = out + i * kScanOutputs;
  o[0] = cg::inclusive_scan(tile16, v);
  o[1] = cg::exclusive_scan(tile32, v);
  o[2] = cg::inclusive_scan(tile8, v, cg::greater<int>());
  o[3] = (int)cg::exclusive_scan(tile32, (unsigned)v, cg::bit_xor<unsigned>());
  // Quarters are exact in float: the sum does not depend on the order of additions.
  const float f = cg::inclusive_scan(tile32, 0.25f * (float)v, [](float a, float b) { return a + b; });
  o[4] = (int)(f * 4.0f);
}

__global__ void partitions(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];
  int* o = out + i * kPartOutputs;
  cg::coalesced_group same_label = cg::labeled_partition(tile, v % 3);
  o[0] = (int)same_label.thread_rank();
  o[1] = (int)same_label.size();
  o[2] = (int)(same_label.meta_group_rank() * 16 + same_label.meta_group_size());
  o[3] = cg::inclusive_scan(same_label, v);
  cg::coalesced_group same_parity = cg::binary_partition(tile, (v & 1) != 0);
  o[4] = (int)(same_parity.thread_rank() * 100 + same_parity.size());
  o[5] = (int)(unsigned)same_parity.ballot(v > 50);
  o[6] = same_parity.any(v > 90) * 10 + same_parity.all(v > 5);
  o[7] = cg::exclusive_scan(same_parity, v, cg::greater<int>());
  o[8] = -1;
  o[9] = -1;
  if (v % 5 != 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    o[8] = cg::exclusive_scan(active, v);
    o[9] = (int)active.thread_rank();
  }
}

__global__ void scratch_block(const int* in, int* out) {
  __shared__ cg::block_tile_memory<kScanBlock> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = cg::inclusive_scan(tile, in[i]) + (int)block.thread_rank();
}

// --- CPU reference --------------------------------------------------------------------------------------

static void reference_scans(const std::vector<int>& in, std::vector<int>& out) {
  for (int i = 0; i < kScanN; ++i) {
    int* o = &out[i * kScanOutputs];
    int sum16 = 0, ex32 = 0, max8 = in[i - i % 8], f4 = 0;
    unsigned x32 = 0;
    for (int j = i - i % 16; j <= i; ++j) sum16 += in[j];
    for (int j = i - i % 32; j < i; ++j) {
      ex32 += in[j];
      x32 ^= (unsigned)in[j];
    }
    for (int j = i - i % 8; j <= i; ++j) max8 = in[j] > max8 ? in[j] : max8;
    for (int j = i - i % 32; j <= i; ++j) f4 += in[j];
    o[0] = sum16;
    o[1] = ex32;
    o[2] = max8;
    o[3] = (int)x32;
    o[4] = f4;
  }
}

static void reference_partitions(const std::vector<int>& in, std::vector<int>& out) {
  for (int i = 0; i < kPartN; ++i) {
    const int base = i - i % 32, v = in[i];
    int* o = &out[i * kPartOutputs];
    int rank = 0, size = 0, sum = 0, leaders = 0, my_leader_rank = 0;
    for (int j = base; j < base + 32; ++j) {
      if (in[j] % 3 == v % 3) {
        size += 1;
        if (j < i) rank += 1;
        if (j <= i) sum += in[j];
      }
      bool first = true;  // is j the lowest lane of its label?
      for (int k = base; k < j; ++k) first = first && in[k] % 3 != in[j] % 3;
      if (first) {
        if (in[j] % 3 == v % 3) my_leader_rank = leaders;
        leaders += 1;
      }
    }
    o[0] = rank;
    o[1] = size;
    o[2] = my_leader_rank * 16 + leaders;
    o[3] = sum;
    int prank = 0, psize = 0, any = 0, all = 1, ex_max = 0, seen = 0;
    unsigned ballot = 0;
    for (int j = base; j < base + 32; ++j) {
      if ((in[j] & 1) != (v & 1)) continue;
      if (in[j] > 50) ballot |= 1u << psize;
      any |= in[j] > 90;
      all &= in[j] > 5;
      if (j < i) {
        prank += 1;
        ex_max = seen ? (in[j] > ex_max ? in[j] : ex_max) : in[j];
        seen = 1;
      }
      psize += 1;
    }
    o[4] = prank * 100 + psize;
    o[5] = (int)ballot;
    o[6] = any * 10 + all;
    o[7] = ex_max;  // rank 0: a value-initialized int
    o[8] = -1;
    o[9] = -1;
    if (v % 5 != 0) {
      int ex = 0, crank = 0;
      for (int j = base; j < i; ++j) {
        if (in[j] % 5 != 0) {
          ex += in[j];
          crank += 1;
        }
      }
      o[8] = ex;
      o[9] = crank;
    }
  }
}

static void reference_scratch(const std::vector<int>& in, std::vector<int>& out) {
  for (int i = 0; i < kScanN; ++i) {
    int sum = 0;
    for (int j = i - i % 32; j <= i; ++j) sum += in[j];
    out[i] = sum + i % kScanBlock;
  }
}

static long long checksum(const std::vector<int>& values) {
  long long sum = 0;
  for (size_t k = 0; k < values.size(); ++k) sum += (long long)values[k] * (long long)(k % 7 + 1);
  return sum;
}

static int first_mismatch(const std::vector<int>& got, const std::vector<int>& want) {
  for (size_t k = 0; k < want.size(); ++k)
    if (got[k] != want[k]) return (int)k;
  return -1;
}

int main() {
  std::vector<int> in(kScanN);
  for (int i = 0; i < kScanN; ++i) in[i] = (i * 37 + 11) % 97 + 1;  // 1..97
  std::vector<int> ref_scans(kScanN * kScanOutputs), ref_parts(kPartN * kPartOutputs), ref_scratch(kScanN);
  reference_scans(in, ref_scans);
  reference_partitions(in, ref_parts);
  reference_scratch(in, ref_scratch);
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("cg_scan_partition: PASS checksum=%lld/%lld/%lld\n", checksum(ref_scans), checksum(ref_parts),
              checksum(ref_scratch));
  return 0;
#endif
  int *d_in, *d_scans, *d_parts, *d_scratch;
  cudaCheck(cudaMalloc(&d_in, kScanN * sizeof(int)));
  cudaCheck(cudaMalloc(&d_scans, ref_scans.size() * sizeof(int)));
  cudaCheck(cudaMalloc(&d_parts, ref_parts.size() * sizeof(int)));
  cudaCheck(cudaMalloc(&d_scratch, ref_scratch.size() * sizeof(int)));
  cudaCheck(cudaMemcpy(d_in, in.data(), kScanN * sizeof(int), cudaMemcpyHostToDevice));
  tile_scans<<<kScanN / kScanBlock, kScanBlock>>>(d_in, d_scans);
  cudaCheck(cudaGetLastError());
  partitions<<<kPartN / kPartBlock, kPartBlock>>>(d_in, d_parts);
  cudaCheck(cudaGetLastError());
  scratch_block<<<kScanN / kScanBlock, kScanBlock>>>(d_in, d_scratch);
  cudaCheck(cudaGetLastError());
  std::vector<int> scans(ref_scans.size()), parts(ref_parts.size()), scratch(ref_scratch.size());
  cudaCheck(cudaMemcpy(scans.data(), d_scans, scans.size() * sizeof(int), cudaMemcpyDeviceToHost));
  cudaCheck(cudaMemcpy(parts.data(), d_parts, parts.size() * sizeof(int), cudaMemcpyDeviceToHost));
  cudaCheck(cudaMemcpy(scratch.data(), d_scratch, scratch.size() * sizeof(int), cudaMemcpyDeviceToHost));
  cudaCheck(cudaFree(d_in));
  cudaCheck(cudaFree(d_scans));
  cudaCheck(cudaFree(d_parts));
  cudaCheck(cudaFree(d_scratch));
  const int bad_scan = first_mismatch(scans, ref_scans);
  const int bad_part = first_mismatch(parts, ref_parts);
  const int bad_scratch = first_mismatch(scratch, ref_scratch);
  if (bad_scan >= 0 || bad_part >= 0 || bad_scratch >= 0) {
    std::printf("cg_scan_partition: FAIL scan[%d] partition[%d] scratch[%d]\n", bad_scan, bad_part, bad_scratch);
    return 1;
  }
  std::printf("cg_scan_partition: PASS checksum=%lld/%lld/%lld\n", checksum(scans), checksum(parts),
              checksum(scratch));
  return 0;
}
