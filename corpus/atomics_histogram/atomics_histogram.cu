// atomics_histogram: atomicAdd on shared and global memory (int, unsigned long long, float),
// atomicMin/atomicMax, atomicCAS loop, atomicExch, atomicInc, atomicOr/And/Xor.
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

constexpr int BINS = 64;

struct Stats {
  int minv, maxv;
  unsigned int orv, andv, xorv, wraps;
  unsigned long long total;
  float fsum;
  int last;
};

__device__ void atomic_add_double_cas(double* addr, double v) {
  unsigned long long* p = (unsigned long long*)addr;
  unsigned long long old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __double_as_longlong(__longlong_as_double(assumed) + v));
  } while (assumed != old);
}

__global__ void histogram(const unsigned char* data, int n, unsigned int* bins, Stats* st, double* dsum) {
  __shared__ unsigned int local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int v = data[i];
    atomicAdd(&local[v % BINS], 1u);
    atomicMin(&st->minv, v);
    atomicMax(&st->maxv, v);
    atomicOr(&st->orv, 1u << (v % 32));
    atomicAnd(&st->andv, ~(1u << (v % 7)));
    atomicXor(&st->xorv, (unsigned)v);
    atomicInc(&st->wraps, 99u);
    atomicAdd(&st->total, (unsigned long long)v);
    atomicAdd(&st->fsum, 0.5f);
    atomic_add_double_cas(dsum, 0.25);
    if (i == n - 1) atomicExch(&st->last, v);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

int main() {
  const int n = 1 << 14;  // fsum/dsum stay exact at this size
  std::vector<unsigned char> data(n);
  for (int i = 0; i < n; ++i) data[i] = (unsigned char)((i * 37 + (i >> 3)) & 0xff);
  std::vector<unsigned int> ref_bins(BINS, 0);
  Stats ref = {255, 0, 0, 0xffffffffu, 0, 0, 0, 0.0f, 0};
  for (int i = 0; i < n; ++i) {
    int v = data[i];
    ref_bins[v % BINS]++;
    ref.minv = v < ref.minv ? v : ref.minv;
    ref.maxv = v > ref.maxv ? v : ref.maxv;
    ref.orv |= 1u << (v % 32);
    ref.andv &= ~(1u << (v % 7));
    ref.xorv ^= (unsigned)v;
    ref.wraps = ref.wraps >= 99u ? 0 : ref.wraps + 1;
    ref.total += v;
    ref.fsum += 0.5f;
  }
  ref.last = data[n - 1];
  unsigned long long ref_h = 0;
  for (int b = 0; b < BINS; ++b) ref_h = ref_h * 131 + ref_bins[b];
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("atomics_histogram: PASS checksum=%016llx/%d/%d/%08x/%08x/%08x/%u/%llu/%.1f/%.2f/%d\n", ref_h, ref.minv,
              ref.maxv, ref.orv, ref.andv, ref.xorv, ref.wraps, ref.total, ref.fsum, 0.25 * n, ref.last);
  return 0;
#endif
  unsigned char* d_data;
  unsigned int* d_bins;
  Stats* d_st;
  double* d_dsum;
  CHECK(cudaMalloc(&d_data, n));
  CHECK(cudaMalloc(&d_bins, BINS * sizeof(unsigned int)));
  CHECK(cudaMalloc(&d_st, sizeof(Stats)));
  CHECK(cudaMalloc(&d_dsum, sizeof(double)));
  CHECK(cudaMemcpy(d_data, data.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_bins, 0, BINS * sizeof(unsigned int)));
  CHECK(cudaMemset(d_dsum, 0, sizeof(double)));
  Stats init = {255, 0, 0, 0xffffffffu, 0, 0, 0, 0.0f, -1};
  CHECK(cudaMemcpy(d_st, &init, sizeof(Stats), cudaMemcpyHostToDevice));
  histogram<<<1, 256>>>(d_data, n, d_bins, d_st, d_dsum);  // one block: atomicInc order-independent count
  CHECK(cudaGetLastError());
  std::vector<unsigned int> bins(BINS);
  Stats st;
  double dsum;
  CHECK(cudaMemcpy(bins.data(), d_bins, BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&st, d_st, sizeof(Stats), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&dsum, d_dsum, sizeof(double), cudaMemcpyDeviceToHost));
  unsigned long long h = 0;
  for (int b = 0; b < BINS; ++b) h = h * 131 + bins[b];
  CHECK(cudaFree(d_data));
  CHECK(cudaFree(d_bins));
  CHECK(cudaFree(d_st));
  CHECK(cudaFree(d_dsum));
  bool ok = bins == ref_bins && st.minv == ref.minv && st.maxv == ref.maxv && st.orv == ref.orv &&
            st.andv == ref.andv && st.xorv == ref.xorv && st.wraps == ref.wraps && st.total == ref.total &&
            st.fsum == ref.fsum && dsum == 0.25 * n && st.last == ref.last;
  if (!ok) { std::printf("atomics_histogram: FAIL\n"); return 1; }
  std::printf("atomics_histogram: PASS checksum=%016llx/%d/%d/%08x/%08x/%08x/%u/%llu/%.1f/%.2f/%d\n", h, st.minv,
              st.maxv, st.orv, st.andv, st.xorv, st.wraps, st.total, st.fsum, dsum, st.last);
  return 0;
}
