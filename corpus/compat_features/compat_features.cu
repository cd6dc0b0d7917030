// compat_features: small CUDA features ROCm lacks (hipify-py's compatibility header provides them):
// cg::reduce on thread_block_tile<32/16/8> and on a coalesced_group of 11 threads with cg::plus/less/greater/
// bit_and/bit_or/bit_xor and a user functor on a struct, the cache-hinted loads (__ldcs/__ldcg/__ldca/__ldlu/
// __ldcv) and stores (__stcs/__stcg/__stwb/__stwt) on float, double, int4, float4, __half and __nv_bfloat16(2),
// __syncwarp with and without a mask, umin/umax/llmin/llmax/ullmin/ullmax and mixed-signedness min/max, __dp4a (packed and char4/uchar4),
// the SIMD __vmax/__vmin on bytes and halfwords, __float2bfloat16_rn/__float2bfloat162_rn/
// __floats2bfloat162_rn/make_bfloat162, __fmaf_ieee_rn and htanh/h2tanh(_approx) on __half and bfloat16. Every
// result but tanh is exact, so the GPU's must equal the CPU reference bit for bit (tanh: within a tolerance);
// results do not depend on the warp size (tiles and groups are at most 32 wide).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
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

typedef unsigned long long u64;

const int kBlock = 128;
const int kBlocks = 2;
const int kN = kBlock * kBlocks;
const int kTileSlots = 8;       // results per thread and tile size
const int kCoalescedSlots = 4;  // results per thread of the coalesced-group kernel
const int kIntSlots = 28;       // results per thread of the integer/bfloat16/fma kernel
const int kTanhSlots = 12;      // tanh results per thread (half, then bfloat16)

__host__ __device__ int int_input(int i) { return (i * 37) % 101 - 50; }
__host__ __device__ unsigned int bits_input(int i) { return (unsigned int)i * 2654435761u ^ 0x5bd1e995u; }

struct MinLoc {
  int value;
  int index;
};

// The smallest value, the lowest index among equals: associative and commutative.
struct MinLocOp {
  __host__ __device__ MinLoc operator()(MinLoc a, MinLoc b) const {
    return (b.value < a.value || (b.value == a.value && b.index < a.index)) ? b : a;
  }
};

__host__ __device__ u64 pack_minloc(MinLoc m) { return ((u64)(unsigned int)m.value << 32) | (unsigned int)m.index; }

// ---- cooperative-groups reductions ------------------------------------------------------------------------

template <unsigned int Size>
__global__ void tile_reduce(const int* ints, const float* floats, u64* out, int first_slot, int slots) {
  cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(cg::this_thread_block());
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = ints[i];
  u64* o = out + (size_t)i * slots + first_slot;
  o[0] = (u64)(long long)cg::reduce(tile, v, cg::plus<int>());
  o[1] = (u64)(long long)cg::reduce(tile, v, cg::less<int>());
  o[2] = (u64)(long long)cg::reduce(tile, v, cg::greater<int>());
  o[3] = cg::reduce(tile, bits_input(i), cg::bit_and<unsigned int>());
  o[4] = cg::reduce(tile, bits_input(i), cg::bit_or<unsigned int>());
  o[5] = cg::reduce(tile, bits_input(i), cg::bit_xor<unsigned int>());
  o[6] = (u64)(long long)(cg::reduce(tile, floats[i], cg::plus<float>()) * 4.0f);  // exact: quarters
  MinLoc mine = {v, (int)tile.thread_rank()};
  o[7] = pack_minloc(cg::reduce(tile, mine, MinLocOp()));
}

// Launched with 32-thread blocks: the threads whose index is a multiple of 3 form a group of 11.
__global__ void coalesced_reduce(const int* ints, u64* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  u64* o = out + (size_t)i * kCoalescedSlots;
  if (threadIdx.x % 3 != 0) {
    for (int k = 0; k < kCoalescedSlots; ++k) o[k] = 0;
    return;
  }
  cg::coalesced_group active = cg::coalesced_threads();
  const int v = ints[i];
  o[0] = (u64)(long long)cg::reduce(active, v, cg::plus<int>());
  o[1] = (u64)(long long)cg::reduce(active, v, cg::greater<int>());
  o[2] = (u64)active.size() * 1000 + active.thread_rank();
  MinLoc mine = {v, (int)active.thread_rank()};
  o[3] = pack_minloc(cg::reduce(active, mine, MinLocOp()));
}

// ---- cache-hinted loads and stores, __syncwarp -------------------------------------------------------------

struct HintBuffers {
  const float* f;
  const double* d;
  const int4* i4;
  const float4* f4;
  const __half* h;
  const __nv_bfloat16* b;
  const __nv_bfloat162* b2;
  float* f_out;  // 4 per thread
  int4* i4_out;
  float4* f4_out;
  double* d_out;
  __half* h_out;  // 2 per thread
  __nv_bfloat16* b_out;
  __nv_bfloat162* b2_out;
  int* swapped;
};

__global__ void cache_hints(HintBuffers p) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float f = __ldcs(p.f + i) + __ldcg(p.f + i) + __ldca(p.f + i) + __ldlu(p.f + i) + __ldcv(p.f + i);
  __stcs(p.f_out + 4 * i, f);
  __stcg(p.f_out + 4 * i + 1, __ldcs(p.f + i) * 2.0f);
  __stwb(p.f_out + 4 * i + 2, __ldcg(p.f + i) * 3.0f);
  __stwt(p.f_out + 4 * i + 3, __ldcv(p.f + i) - 1.0f);
  const int4 a = __ldcs(p.i4 + i), b = __ldcv(p.i4 + i);
  __stcs(p.i4_out + i, make_int4(a.x + b.w, a.y + b.z, a.z + b.y, a.w + b.x));
  const float4 c = __ldlu(p.f4 + i);
  __stwt(p.f4_out + i, make_float4(c.w, c.z, c.y, c.x));
  __stcg(p.d_out + i, __ldcg(p.d + i) + __ldcs(p.d + i));
  __stcs(p.h_out + 2 * i, __ldlu(p.h + i));
  __stwt(p.h_out + 2 * i + 1, __ldcv(p.h + i));
  __stcs(p.b_out + i, __ldcs(p.b + i));
  __stwb(p.b2_out + i, __ldca(p.b2 + i));

  // Neighbours exchange through shared memory; __syncwarp orders the lanes' writes and reads.
  __shared__ int exchange[kBlock];
  const int t = threadIdx.x;
  exchange[t] = int_input(i);
  __syncwarp();
  const int from_pair = exchange[t ^ 1];
  __syncwarp(0xffffffffu);
  exchange[t] = from_pair * 2 + 1;
  __syncwarp();
  p.swapped[i] = exchange[t ^ 2];
}

// ---- integer, SIMD, bfloat16 and fma intrinsics ------------------------------------------------------------

__host__ __device__ float bf16_input(int i) {
  // 1 + k/512 for k = 0..511: every fourth value is halfway between two bfloat16 numbers.
  return (1.0f + (float)(i % 512) / 512.0f) * ((i & 1) ? -1.0f : 1.0f);
}

__host__ __device__ float fma_input(int i) { return 1.0f + (float)(i % 8 + 1) / 4096.0f; }

__global__ void integer_ops(const float* fma_products, u64* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int a = bits_input(i), b = bits_input(i + 1000);
  u64* o = out + (size_t)i * kIntSlots;
  o[0] = umin(a, b);
  o[1] = umax(a, b);
  o[2] = (u64)llmin((long long)(int)a * 3, (long long)(int)b);
  o[3] = (u64)llmax((long long)(int)a * 3, (long long)(int)b);
  o[4] = ullmin(((u64)a << 20) | b, ((u64)b << 20) | a);
  o[5] = ullmax(((u64)a << 20) | b, ((u64)b << 20) | a);
  o[6] = (u64)(long long)__dp4a((int)a, (int)b, i - 100);
  o[7] = __dp4a(a, b, (unsigned int)i);
  const char4 ca = make_char4((char)(a & 0xff), (char)(a >> 8), (char)(a >> 16), (char)(a >> 24));
  const char4 cb = make_char4((char)(b & 0xff), (char)(b >> 8), (char)(b >> 16), (char)(b >> 24));
  o[8] = (u64)(long long)__dp4a(ca, cb, -i);
  const uchar4 ua = make_uchar4(a & 0xff, (a >> 8) & 0xff, (a >> 16) & 0xff, a >> 24);
  const uchar4 ub = make_uchar4(b & 0xff, (b >> 8) & 0xff, (b >> 16) & 0xff, b >> 24);
  o[9] = __dp4a(ua, ub, 7u);
  o[10] = __vmaxs4(a, b);
  o[11] = __vmaxu4(a, b);
  o[12] = __vmins4(a, b);
  o[13] = __vminu4(a, b);
  o[14] = __vmaxs2(a, b);
  o[15] = __vmaxu2(a, b);
  o[16] = __vmins2(a, b);
  o[17] = __vminu2(a, b);
  const float x = bf16_input(i), y = bf16_input(i + 129);
  o[18] = __bfloat16_as_ushort(__float2bfloat16_rn(x));
  const __nv_bfloat162 pair = __floats2bfloat162_rn(x, y);
  o[19] = ((u64)__bfloat16_as_ushort(pair.x) << 16) | __bfloat16_as_ushort(pair.y);
  const __nv_bfloat162 twice = __float2bfloat162_rn(y);
  o[20] = ((u64)__bfloat16_as_ushort(twice.x) << 16) | __bfloat16_as_ushort(twice.y);
  const __nv_bfloat162 made = make_bfloat162(pair.y, pair.x);
  o[21] = ((u64)__bfloat16_as_ushort(made.x) << 16) | __bfloat16_as_ushort(made.y);
  // p*p - (p*p rounded): zero unless the multiply-add is fused.
  const float p = fma_input(i);
  float r = __fmaf_ieee_rn(p, p, -fma_products[i]);
  unsigned int r_bits;
  memcpy(&r_bits, &r, sizeof(r_bits));
  o[22] = r_bits;
  o[23] = (u64)umin(a, 7u) + umax(b, 7u);
  o[24] = (u64)llmin(-(long long)i, 3ll);
  o[25] = ullmax((u64)i, 100ull);
  // CUDA's mixed-signedness min/max compare as unsigned: min(-3, 7u) is 7u.
  const int s = int_input(i);
  o[26] = (u64)min(s, 7u) | ((u64)max(7u, s) << 32);
  o[27] = min((long long)s * 1000000007ll, 5ull) ^ max(5ull, (long long)s);
}

// ---- half and bfloat16 tanh: approximate, so checked against tanh within a tolerance --------------------

__host__ __device__ float tanh_input(int i) { return (float)(i % 128 - 64) / 16.0f; }  // exact in both

__global__ void half_tanh(float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = tanh_input(i), y = tanh_input(i + 37);
  float* o = out + (size_t)i * kTanhSlots;
  const __half h = __float2half(x);
  const __half2 h2 = __floats2half2_rn(x, y);
  o[0] = __half2float(htanh(h));
  o[1] = __half2float(htanh_approx(h));
  const __half2 t2 = h2tanh(h2), a2 = h2tanh_approx(h2);
  o[2] = __low2float(t2);
  o[3] = __high2float(t2);
  o[4] = __low2float(a2);
  o[5] = __high2float(a2);
  const __nv_bfloat16 b = __float2bfloat16(x);
  const __nv_bfloat162 b2 = __floats2bfloat162_rn(x, y);
  o[6] = __bfloat162float(htanh(b));
  o[7] = __bfloat162float(htanh_approx(b));
  const __nv_bfloat162 tb = h2tanh(b2), ab = h2tanh_approx(b2);
  o[8] = __low2float(tb);
  o[9] = __high2float(tb);
  o[10] = __low2float(ab);
  o[11] = __high2float(ab);
}

// 1 where a result is within a few units in the last place of tanh (half: 2^-11, bfloat16: 2^-8 near 1).
static u64 tanh_close(int i, int slot, float got) {
  const int lane = slot % 6;
  const float arg = (lane == 3 || lane == 5) ? tanh_input(i + 37) : tanh_input(i);
  const double tolerance = slot < 6 ? 0.002 : 0.016;
  return std::fabs((double)got - std::tanh((double)arg)) <= tolerance ? 1 : 0;
}

// ---- CPU reference -----------------------------------------------------------------------------------------

static u64 fold_tile(int size, int i, int which) {
  const int first = i / size * size;
  long long sum = 0;
  int lo = int_input(first), hi = int_input(first);
  unsigned int band = 0xffffffffu, bor = 0, bxor = 0;
  float fsum = 0.0f;
  MinLoc best = {int_input(first), 0};
  for (int k = first; k < first + size; ++k) {
    const int v = int_input(k);
    sum += v;
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
    band &= bits_input(k);
    bor |= bits_input(k);
    bxor ^= bits_input(k);
    fsum += (float)v * 0.25f;
    if (v < best.value) best = MinLoc{v, k - first};
  }
  switch (which) {
    case 0: return (u64)sum;
    case 1: return (u64)(long long)lo;
    case 2: return (u64)(long long)hi;
    case 3: return band;
    case 4: return bor;
    case 5: return bxor;
    case 6: return (u64)(long long)(fsum * 4.0f);
    default: return pack_minloc(best);
  }
}

static unsigned int ref_bf16(float f) {  // round to nearest, ties to even (no NaN among the inputs)
  unsigned int u;
  memcpy(&u, &f, sizeof(u));
  u += 0x7fffu + ((u >> 16) & 1u);
  return u >> 16;
}

static unsigned int ref_half(float f) {  // exact for the inputs: zero or normal with few significant bits
  unsigned int u;
  memcpy(&u, &f, sizeof(u));
  if ((u & 0x7fffffffu) == 0) return (u >> 16) & 0x8000u;
  return ((u >> 16) & 0x8000u) | ((((u >> 23) & 0xffu) - 127u + 15u) << 10) | ((u >> 13) & 0x3ffu);
}

static unsigned int ref_simd(unsigned int a, unsigned int b, int lane_bits, bool is_signed, bool maximum) {
  unsigned int result = 0;
  const unsigned int mask = (1u << lane_bits) - 1u;
  for (int shift = 0; shift < 32; shift += lane_bits) {
    long long x = (a >> shift) & mask, y = (b >> shift) & mask;
    if (is_signed && x > (long long)(mask >> 1)) x -= (long long)mask + 1;
    if (is_signed && y > (long long)(mask >> 1)) y -= (long long)mask + 1;
    const long long pick = maximum ? (x > y ? x : y) : (x < y ? x : y);
    result |= ((unsigned int)pick & mask) << shift;
  }
  return result;
}

static long long ref_dp4a(unsigned int a, unsigned int b, long long c, bool is_signed) {
  long long sum = c;
  for (int shift = 0; shift < 32; shift += 8) {
    long long x = (a >> shift) & 0xff, y = (b >> shift) & 0xff;
    if (is_signed) {
      x = (signed char)x;
      y = (signed char)y;
    }
    sum += x * y;
  }
  return is_signed ? (long long)(int)(unsigned int)sum : (long long)(unsigned int)sum;
}

static std::vector<u64> reference() {
  std::vector<u64> r;
  const int sizes[3] = {32, 16, 8};
  for (int i = 0; i < kN; ++i)
    for (int s = 0; s < 3; ++s)
      for (int k = 0; k < kTileSlots; ++k) r.push_back(fold_tile(sizes[s], i, k));
  for (int i = 0; i < kN; ++i) {
    const int lane = i % 32, first = i - lane;
    if (lane % 3 != 0) {
      for (int k = 0; k < kCoalescedSlots; ++k) r.push_back(0);
      continue;
    }
    long long sum = 0;
    int hi = int_input(first);
    MinLoc best = {int_input(first), 0};
    for (int l = 0, rank = 0; l < 32; l += 3, ++rank) {
      const int v = int_input(first + l);
      sum += v;
      hi = v > hi ? v : hi;
      if (v < best.value) best = MinLoc{v, rank};
    }
    r.push_back((u64)sum);
    r.push_back((u64)(long long)hi);
    r.push_back(11 * 1000 + lane / 3);
    r.push_back(pack_minloc(best));
  }
  for (int i = 0; i < kN; ++i) {
    const int v = int_input(i);
    const float f = (float)v * 0.25f;
    const long long values[12] = {5 * v, 2 * v, 3 * v, v - 4, 2 * v + 3, 2 * v + 3, 2 * v + 3, 2 * v + 3,
                                    4 * v, 3 * v, 2 * v, v};
    for (long long x : values) r.push_back((u64)x);  // quarters, except the int4 sums
    r.push_back((u64)(long long)(2 * v));  // 2 * (v / 8), in eighths
    r.push_back(((u64)ref_half(f) << 16) | ref_half(f));
    r.push_back(ref_bf16(f));
    r.push_back(((u64)ref_bf16(2.0f * f) << 16) | ref_bf16(3.0f * f));
    r.push_back((u64)(long long)(int_input((i ^ 2) ^ 1) * 2 + 1));
  }
  for (int i = 0; i < kN; ++i) {
    const unsigned int a = bits_input(i), b = bits_input(i + 1000);
    const long long la = (long long)(int)a * 3, lb = (long long)(int)b;
    const u64 ua = ((u64)a << 20) | b, ub = ((u64)b << 20) | a;
    r.push_back(a < b ? a : b);
    r.push_back(a < b ? b : a);
    r.push_back((u64)(la < lb ? la : lb));
    r.push_back((u64)(la < lb ? lb : la));
    r.push_back(ua < ub ? ua : ub);
    r.push_back(ua < ub ? ub : ua);
    r.push_back((u64)ref_dp4a(a, b, i - 100, true));
    r.push_back((u64)ref_dp4a(a, b, (unsigned int)i, false));
    r.push_back((u64)ref_dp4a(a, b, -i, true));
    r.push_back((u64)ref_dp4a(a, b, 7, false));
    r.push_back(ref_simd(a, b, 8, true, true));
    r.push_back(ref_simd(a, b, 8, false, true));
    r.push_back(ref_simd(a, b, 8, true, false));
    r.push_back(ref_simd(a, b, 8, false, false));
    r.push_back(ref_simd(a, b, 16, true, true));
    r.push_back(ref_simd(a, b, 16, false, true));
    r.push_back(ref_simd(a, b, 16, true, false));
    r.push_back(ref_simd(a, b, 16, false, false));
    const float x = bf16_input(i), y = bf16_input(i + 129);
    r.push_back(ref_bf16(x));
    r.push_back(((u64)ref_bf16(x) << 16) | ref_bf16(y));
    r.push_back(((u64)ref_bf16(y) << 16) | ref_bf16(y));
    r.push_back(((u64)ref_bf16(y) << 16) | ref_bf16(x));
    const float p = fma_input(i), q = p * p;
    const float fused = std::fma(p, p, -q);
    unsigned int fused_bits;
    memcpy(&fused_bits, &fused, sizeof(fused_bits));
    r.push_back(fused_bits);
    r.push_back((u64)(a < 7u ? a : 7u) + (b > 7u ? b : 7u));
    r.push_back((u64)(-(long long)i < 3 ? -(long long)i : 3ll));
    r.push_back((u64)i > 100ull ? (u64)i : 100ull);
    const unsigned int us = (unsigned int)int_input(i);
    r.push_back((u64)(us < 7u ? us : 7u) | ((u64)(us > 7u ? us : 7u) << 32));
    const u64 wide = (u64)((long long)int_input(i) * 1000000007ll), narrow = (u64)(long long)int_input(i);
    r.push_back((wide < 5ull ? wide : 5ull) ^ (narrow > 5ull ? narrow : 5ull));
  }
  for (int i = 0; i < kN * kTanhSlots; ++i) r.push_back(1);
  return r;
}

static u64 checksum(const std::vector<u64>& values) {  // FNV-1a over the bytes
  u64 h = 1469598103934665603ull;
  for (u64 v : values)
    for (int k = 0; k < 8; ++k) h = (h ^ ((v >> (8 * k)) & 0xff)) * 1099511628211ull;
  return h;
}

int main() {
  const std::vector<u64> ref = reference();
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("compat_features: PASS checksum=%016llx\n", checksum(ref));
  return 0;
#endif
  // Inputs
  std::vector<int> ints(kN);
  std::vector<float> floats(kN), f(kN), fma_products(kN);
  std::vector<double> d(kN);
  std::vector<int4> i4(kN);
  std::vector<float4> f4(kN);
  std::vector<__half> h(kN);
  std::vector<__nv_bfloat16> b(kN);
  std::vector<__nv_bfloat162> b2(kN);
  for (int i = 0; i < kN; ++i) {
    const int v = int_input(i);
    ints[i] = v;
    floats[i] = f[i] = (float)v * 0.25f;
    d[i] = (double)v / 8.0;
    i4[i] = make_int4(v, v + 1, v + 2, v + 3);
    f4[i] = make_float4(f[i], 2.0f * f[i], 3.0f * f[i], 4.0f * f[i]);
    h[i] = __float2half(f[i]);
    b[i] = __float2bfloat16(f[i]);
    b2[i] = __floats2bfloat162_rn(2.0f * f[i], 3.0f * f[i]);
    fma_products[i] = fma_input(i) * fma_input(i);
  }
  int* d_ints;
  float *d_floats, *d_fma, *d_f_out;
  u64 *d_tiles, *d_coalesced, *d_int_ops;
  CHECK(cudaMalloc(&d_ints, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_floats, kN * sizeof(float)));
  CHECK(cudaMalloc(&d_fma, kN * sizeof(float)));
  CHECK(cudaMalloc(&d_tiles, (size_t)kN * 3 * kTileSlots * sizeof(u64)));
  CHECK(cudaMalloc(&d_coalesced, (size_t)kN * kCoalescedSlots * sizeof(u64)));
  CHECK(cudaMalloc(&d_int_ops, (size_t)kN * kIntSlots * sizeof(u64)));
  CHECK(cudaMemcpy(d_ints, ints.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_floats, floats.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_fma, fma_products.data(), kN * sizeof(float), cudaMemcpyHostToDevice));

  HintBuffers p;
  float* d_f;
  double *d_d, *d_d_out;
  int4 *d_i4, *d_i4_out;
  float4 *d_f4, *d_f4_out;
  __half *d_h, *d_h_out;
  __nv_bfloat16 *d_b, *d_b_out;
  __nv_bfloat162 *d_b2, *d_b2_out;
  int* d_swapped;
  float* d_tanh;
  CHECK(cudaMalloc(&d_tanh, (size_t)kN * kTanhSlots * sizeof(float)));
  CHECK(cudaMalloc(&d_f, kN * sizeof(float)));
  CHECK(cudaMalloc(&d_d, kN * sizeof(double)));
  CHECK(cudaMalloc(&d_i4, kN * sizeof(int4)));
  CHECK(cudaMalloc(&d_f4, kN * sizeof(float4)));
  CHECK(cudaMalloc(&d_h, kN * sizeof(__half)));
  CHECK(cudaMalloc(&d_b, kN * sizeof(__nv_bfloat16)));
  CHECK(cudaMalloc(&d_b2, kN * sizeof(__nv_bfloat162)));
  CHECK(cudaMalloc(&d_f_out, 4 * kN * sizeof(float)));
  CHECK(cudaMalloc(&d_i4_out, kN * sizeof(int4)));
  CHECK(cudaMalloc(&d_f4_out, kN * sizeof(float4)));
  CHECK(cudaMalloc(&d_d_out, kN * sizeof(double)));
  CHECK(cudaMalloc(&d_h_out, 2 * kN * sizeof(__half)));
  CHECK(cudaMalloc(&d_b_out, kN * sizeof(__nv_bfloat16)));
  CHECK(cudaMalloc(&d_b2_out, kN * sizeof(__nv_bfloat162)));
  CHECK(cudaMalloc(&d_swapped, kN * sizeof(int)));
  CHECK(cudaMemcpy(d_f, f.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_d, d.data(), kN * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_i4, i4.data(), kN * sizeof(int4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_f4, f4.data(), kN * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_h, h.data(), kN * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b.data(), kN * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b2, b2.data(), kN * sizeof(__nv_bfloat162), cudaMemcpyHostToDevice));
  p.f = d_f;
  p.d = d_d;
  p.i4 = d_i4;
  p.f4 = d_f4;
  p.h = d_h;
  p.b = d_b;
  p.b2 = d_b2;
  p.f_out = d_f_out;
  p.i4_out = d_i4_out;
  p.f4_out = d_f4_out;
  p.d_out = d_d_out;
  p.h_out = d_h_out;
  p.b_out = d_b_out;
  p.b2_out = d_b2_out;
  p.swapped = d_swapped;

  tile_reduce<32><<<kBlocks, kBlock>>>(d_ints, d_floats, d_tiles, 0, 3 * kTileSlots);
  tile_reduce<16><<<kBlocks, kBlock>>>(d_ints, d_floats, d_tiles, kTileSlots, 3 * kTileSlots);
  tile_reduce<8><<<kBlocks, kBlock>>>(d_ints, d_floats, d_tiles, 2 * kTileSlots, 3 * kTileSlots);
  CHECK(cudaGetLastError());
  coalesced_reduce<<<kN / 32, 32>>>(d_ints, d_coalesced);
  CHECK(cudaGetLastError());
  cache_hints<<<kBlocks, kBlock>>>(p);
  CHECK(cudaGetLastError());
  integer_ops<<<kBlocks, kBlock>>>(d_fma, d_int_ops);
  CHECK(cudaGetLastError());
  half_tanh<<<kBlocks, kBlock>>>(d_tanh);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<u64> got((size_t)kN * 3 * kTileSlots), coalesced((size_t)kN * kCoalescedSlots),
      int_ops((size_t)kN * kIntSlots);
  std::vector<float> f_out(4 * kN);
  std::vector<int4> i4_out(kN);
  std::vector<float4> f4_out(kN);
  std::vector<double> d_out(kN);
  std::vector<unsigned short> h_out(2 * kN), b_out(kN), b2_out(2 * kN);
  std::vector<int> swapped(kN);
  std::vector<float> tanh_out((size_t)kN * kTanhSlots);
  CHECK(cudaMemcpy(got.data(), d_tiles, got.size() * sizeof(u64), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(coalesced.data(), d_coalesced, coalesced.size() * sizeof(u64), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(int_ops.data(), d_int_ops, int_ops.size() * sizeof(u64), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(f_out.data(), d_f_out, f_out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(i4_out.data(), d_i4_out, kN * sizeof(int4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(f4_out.data(), d_f4_out, kN * sizeof(float4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(d_out.data(), d_d_out, kN * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_out.data(), d_h_out, 2 * kN * sizeof(__half), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(b_out.data(), d_b_out, kN * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(b2_out.data(), d_b2_out, kN * sizeof(__nv_bfloat162), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(swapped.data(), d_swapped, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(tanh_out.data(), d_tanh, tanh_out.size() * sizeof(float), cudaMemcpyDeviceToHost));

  got.insert(got.end(), coalesced.begin(), coalesced.end());
  for (int i = 0; i < kN; ++i) {
    for (int k = 0; k < 4; ++k) got.push_back((u64)(long long)(f_out[4 * i + k] * 4.0f));
    got.push_back((u64)(long long)i4_out[i].x);
    got.push_back((u64)(long long)i4_out[i].y);
    got.push_back((u64)(long long)i4_out[i].z);
    got.push_back((u64)(long long)i4_out[i].w);
    got.push_back((u64)(long long)(f4_out[i].x * 4.0f));
    got.push_back((u64)(long long)(f4_out[i].y * 4.0f));
    got.push_back((u64)(long long)(f4_out[i].z * 4.0f));
    got.push_back((u64)(long long)(f4_out[i].w * 4.0f));
    got.push_back((u64)(long long)(d_out[i] * 8.0));
    got.push_back(((u64)h_out[2 * i] << 16) | h_out[2 * i + 1]);
    got.push_back(b_out[i]);
    got.push_back(((u64)b2_out[2 * i] << 16) | b2_out[2 * i + 1]);
    got.push_back((u64)(long long)swapped[i]);
  }
  got.insert(got.end(), int_ops.begin(), int_ops.end());
  for (int i = 0; i < kN; ++i)
    for (int k = 0; k < kTanhSlots; ++k) got.push_back(tanh_close(i, k, tanh_out[(size_t)i * kTanhSlots + k]));

  CHECK(cudaFree(d_ints));
  CHECK(cudaFree(d_floats));
  CHECK(cudaFree(d_fma));
  CHECK(cudaFree(d_tiles));
  CHECK(cudaFree(d_coalesced));
  CHECK(cudaFree(d_int_ops));
  CHECK(cudaFree(d_f));
  CHECK(cudaFree(d_d));
  CHECK(cudaFree(d_i4));
  CHECK(cudaFree(d_f4));
  CHECK(cudaFree(d_h));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_b2));
  CHECK(cudaFree(d_f_out));
  CHECK(cudaFree(d_i4_out));
  CHECK(cudaFree(d_f4_out));
  CHECK(cudaFree(d_d_out));
  CHECK(cudaFree(d_h_out));
  CHECK(cudaFree(d_b_out));
  CHECK(cudaFree(d_b2_out));
  CHECK(cudaFree(d_swapped));
  CHECK(cudaFree(d_tanh));

  if (got.size() != ref.size()) {
    std::printf("compat_features: FAIL %zu results, expected %zu\n", got.size(), ref.size());
    return 1;
  }
  int wrong = 0;
  for (size_t k = 0; k < ref.size(); ++k) {
    if (got[k] != ref[k] && wrong++ < 10)
      std::printf("result %zu: got %llx, expected %llx\n", k, (unsigned long long)got[k],
                  (unsigned long long)ref[k]);
  }
  if (wrong) {
    std::printf("compat_features: FAIL %d of %zu results differ\n", wrong, ref.size());
    return 1;
  }
  std::printf("compat_features: PASS checksum=%016llx\n", checksum(got));
  return 0;
}
