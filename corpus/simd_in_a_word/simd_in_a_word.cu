// simd_in_a_word: every SIMD-in-a-word function of CUDA's Math API (__vabs2 ... __vsubus4: two halfwords or four
// bytes packed in an unsigned int) on word pairs whose lanes take the edge values of their types (the extremes,
// where saturation and wrap-around differ; set sign bits, where signed and unsigned lanes differ; odd sums of
// either sign, where averages round), checked bit for bit against a CPU reference written from the documentation
// (averages: PTX's vavrg, halves rounded away from zero). Results do not depend on the warp size.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t err_ = (call);                                                                   \
    if (err_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));         \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

// Kind of operation, lane bits and signedness of each function, in the order the kernel computes them.
enum Kind { ABS, ABSSS, NEG, NEGSS, ADD, ADDSAT, SUB, SUBSAT, AVG, AVGU, HADD, ABSDIFF, SAD, MAX, MIN, CMP, SET };
enum Cmp { NONE, EQ, NE, GE, GT, LE, LT };
struct Function {
  const char* name;
  Kind kind;
  int bits;
  bool is_signed;
  Cmp cmp;
};

#define SIMD_FUNCTIONS(X)                                                                                     \
  X(__vabs2, ABS, 16, true, NONE) X(__vabs4, ABS, 8, true, NONE) X(__vabsss2, ABSSS, 16, true, NONE)          \
  X(__vabsss4, ABSSS, 8, true, NONE) X(__vneg2, NEG, 16, true, NONE) X(__vneg4, NEG, 8, true, NONE)           \
  X(__vnegss2, NEGSS, 16, true, NONE) X(__vnegss4, NEGSS, 8, true, NONE)                                      \
  X(__vadd2, ADD, 16, false, NONE) X(__vadd4, ADD, 8, false, NONE)                                            \
  X(__vaddss2, ADDSAT, 16, true, NONE) X(__vaddss4, ADDSAT, 8, true, NONE)                                    \
  X(__vaddus2, ADDSAT, 16, false, NONE) X(__vaddus4, ADDSAT, 8, false, NONE)                                  \
  X(__vsub2, SUB, 16, false, NONE) X(__vsub4, SUB, 8, false, NONE)                                            \
  X(__vsubss2, SUBSAT, 16, true, NONE) X(__vsubss4, SUBSAT, 8, true, NONE)                                    \
  X(__vsubus2, SUBSAT, 16, false, NONE) X(__vsubus4, SUBSAT, 8, false, NONE)                                  \
  X(__vavgs2, AVG, 16, true, NONE) X(__vavgs4, AVG, 8, true, NONE)                                            \
  X(__vavgu2, AVGU, 16, false, NONE) X(__vavgu4, AVGU, 8, false, NONE)                                        \
  X(__vhaddu2, HADD, 16, false, NONE) X(__vhaddu4, HADD, 8, false, NONE)                                      \
  X(__vabsdiffs2, ABSDIFF, 16, true, NONE) X(__vabsdiffs4, ABSDIFF, 8, true, NONE)                            \
  X(__vabsdiffu2, ABSDIFF, 16, false, NONE) X(__vabsdiffu4, ABSDIFF, 8, false, NONE)                          \
  X(__vsads2, SAD, 16, true, NONE) X(__vsads4, SAD, 8, true, NONE)                                            \
  X(__vsadu2, SAD, 16, false, NONE) X(__vsadu4, SAD, 8, false, NONE)                                          \
  X(__vmaxs2, MAX, 16, true, NONE) X(__vmaxs4, MAX, 8, true, NONE)                                            \
  X(__vmaxu2, MAX, 16, false, NONE) X(__vmaxu4, MAX, 8, false, NONE)                                          \
  X(__vmins2, MIN, 16, true, NONE) X(__vmins4, MIN, 8, true, NONE)                                            \
  X(__vminu2, MIN, 16, false, NONE) X(__vminu4, MIN, 8, false, NONE)                                          \
  X(__vcmpeq2, CMP, 16, false, EQ) X(__vcmpeq4, CMP, 8, false, EQ)                                            \
  X(__vcmpne2, CMP, 16, false, NE) X(__vcmpne4, CMP, 8, false, NE)                                            \
  X(__vcmpges2, CMP, 16, true, GE) X(__vcmpges4, CMP, 8, true, GE)                                            \
  X(__vcmpgeu2, CMP, 16, false, GE) X(__vcmpgeu4, CMP, 8, false, GE)                                          \
  X(__vcmpgts2, CMP, 16, true, GT) X(__vcmpgts4, CMP, 8, true, GT)                                            \
  X(__vcmpgtu2, CMP, 16, false, GT) X(__vcmpgtu4, CMP, 8, false, GT)                                          \
  X(__vcmples2, CMP, 16, true, LE) X(__vcmples4, CMP, 8, true, LE)                                            \
  X(__vcmpleu2, CMP, 16, false, LE) X(__vcmpleu4, CMP, 8, false, LE)                                          \
  X(__vcmplts2, CMP, 16, true, LT) X(__vcmplts4, CMP, 8, true, LT)                                            \
  X(__vcmpltu2, CMP, 16, false, LT) X(__vcmpltu4, CMP, 8, false, LT)                                          \
  X(__vseteq2, SET, 16, false, EQ) X(__vseteq4, SET, 8, false, EQ)                                            \
  X(__vsetne2, SET, 16, false, NE) X(__vsetne4, SET, 8, false, NE)                                            \
  X(__vsetges2, SET, 16, true, GE) X(__vsetges4, SET, 8, true, GE)                                            \
  X(__vsetgeu2, SET, 16, false, GE) X(__vsetgeu4, SET, 8, false, GE)                                          \
  X(__vsetgts2, SET, 16, true, GT) X(__vsetgts4, SET, 8, true, GT)                                            \
  X(__vsetgtu2, SET, 16, false, GT) X(__vsetgtu4, SET, 8, false, GT)                                          \
  X(__vsetles2, SET, 16, true, LE) X(__vsetles4, SET, 8, true, LE)                                            \
  X(__vsetleu2, SET, 16, false, LE) X(__vsetleu4, SET, 8, false, LE)                                          \
  X(__vsetlts2, SET, 16, true, LT) X(__vsetlts4, SET, 8, true, LT)                                            \
  X(__vsetltu2, SET, 16, false, LT) X(__vsetltu4, SET, 8, false, LT)

#define AS_ENTRY(name, kind, bits, is_signed, cmp) {#name, kind, bits, is_signed, cmp},
static const Function kFunctions[] = {SIMD_FUNCTIONS(AS_ENTRY)};
const int kCount = sizeof(kFunctions) / sizeof(kFunctions[0]);

// One thread per word pair: every function of (a, b), in kFunctions' order.
__device__ void all_functions(unsigned int a, unsigned int b, unsigned int* out) {
  out[0] = __vabs2(a);
  out[1] = __vabs4(a);
  out[2] = __vabsss2(a);
  out[3] = __vabsss4(a);
  out[4] = __vneg2(a);
  out[5] = __vneg4(a);
  out[6] = __vnegss2(a);
  out[7] = __vnegss4(a);
  out[8] = __vadd2(a, b);
  out[9] = __vadd4(a, b);
  out[10] = __vaddss2(a, b);
  out[11] = __vaddss4(a, b);
  out[12] = __vaddus2(a, b);
  out[13] = __vaddus4(a, b);
  out[14] = __vsub2(a, b);
  out[15] = __vsub4(a, b);
  out[16] = __vsubss2(a, b);
  out[17] = __vsubss4(a, b);
  out[18] = __vsubus2(a, b);
  out[19] = __vsubus4(a, b);
  out[20] = __vavgs2(a, b);
  out[21] = __vavgs4(a, b);
  out[22] = __vavgu2(a, b);
  out[23] = __vavgu4(a, b);
  out[24] = __vhaddu2(a, b);
  out[25] = __vhaddu4(a, b);
  out[26] = __vabsdiffs2(a, b);
  out[27] = __vabsdiffs4(a, b);
  out[28] = __vabsdiffu2(a, b);
  out[29] = __vabsdiffu4(a, b);
  out[30] = __vsads2(a, b);
  out[31] = __vsads4(a, b);
  out[32] = __vsadu2(a, b);
  out[33] = __vsadu4(a, b);
  out[34] = __vmaxs2(a, b);
  out[35] = __vmaxs4(a, b);
  out[36] = __vmaxu2(a, b);
  out[37] = __vmaxu4(a, b);
  out[38] = __vmins2(a, b);
  out[39] = __vmins4(a, b);
  out[40] = __vminu2(a, b);
  out[41] = __vminu4(a, b);
  out[42] = __vcmpeq2(a, b);
  out[43] = __vcmpeq4(a, b);
  out[44] = __vcmpne2(a, b);
  out[45] = __vcmpne4(a, b);
  out[46] = __vcmpges2(a, b);
  out[47] = __vcmpges4(a, b);
  out[48] = __vcmpgeu2(a, b);
  out[49] = __vcmpgeu4(a, b);
  out[50] = __vcmpgts2(a, b);
  out[51] = __vcmpgts4(a, b);
  out[52] = __vcmpgtu2(a, b);
  out[53] = __vcmpgtu4(a, b);
  out[54] = __vcmples2(a, b);
  out[55] = __vcmples4(a, b);
  out[56] = __vcmpleu2(a, b);
  out[57] = __vcmpleu4(a, b);
  out[58] = __vcmplts2(a, b);
  out[59] = __vcmplts4(a, b);
  out[60] = __vcmpltu2(a, b);
  out[61] = __vcmpltu4(a, b);
  out[62] = __vseteq2(a, b);
  out[63] = __vseteq4(a, b);
  out[64] = __vsetne2(a, b);
  out[65] = __vsetne4(a, b);
  out[66] = __vsetges2(a, b);
  out[67] = __vsetges4(a, b);
  out[68] = __vsetgeu2(a, b);
  out[69] = __vsetgeu4(a, b);
  out[70] = __vsetgts2(a, b);
  out[71] = __vsetgts4(a, b);
  out[72] = __vsetgtu2(a, b);
  out[73] = __vsetgtu4(a, b);
  out[74] = __vsetles2(a, b);
  out[75] = __vsetles4(a, b);
  out[76] = __vsetleu2(a, b);
  out[77] = __vsetleu4(a, b);
  out[78] = __vsetlts2(a, b);
  out[79] = __vsetlts4(a, b);
  out[80] = __vsetltu2(a, b);
  out[81] = __vsetltu4(a, b);
}

__global__ void simd_kernel(const unsigned int* a, const unsigned int* b, unsigned int* out, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) all_functions(a[i], b[i], out + (size_t)i * 82);
}

// --- CPU reference, from the documentation ---------------------------------------------------------------
static int lane(unsigned int word, int shift, int bits, bool is_signed) {
  int raw = (int)((word >> shift) & ((1u << bits) - 1u));
  return (is_signed && raw >= (1 << (bits - 1))) ? raw - (1 << bits) : raw;
}

static int clamp_lane(int v, int bits, bool is_signed) {
  int lo = is_signed ? -(1 << (bits - 1)) : 0;
  int hi = is_signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
  return v < lo ? lo : (v > hi ? hi : v);
}

static bool holds(Cmp cmp, int x, int y) {
  switch (cmp) {
    case EQ: return x == y;
    case NE: return x != y;
    case GE: return x >= y;
    case GT: return x > y;
    case LE: return x <= y;
    case LT: return x < y;
    default: return false;
  }
}

static unsigned int reference(const Function& f, unsigned int a, unsigned int b) {
  unsigned int result = 0, sum = 0;
  for (int shift = 0; shift < 32; shift += f.bits) {
    int x = lane(a, shift, f.bits, f.is_signed), y = lane(b, shift, f.bits, f.is_signed), r = 0;
    int s = x + y;
    switch (f.kind) {
      case ABS: r = x < 0 ? -x : x; break;
      case ABSSS: r = clamp_lane(x < 0 ? -x : x, f.bits, true); break;
      case NEG: r = -x; break;
      case NEGSS: r = clamp_lane(-x, f.bits, true); break;
      case ADD: r = s; break;
      case ADDSAT: r = clamp_lane(s, f.bits, f.is_signed); break;
      case SUB: r = x - y; break;
      case SUBSAT: r = clamp_lane(x - y, f.bits, f.is_signed); break;
      case AVG: r = s >= 0 ? (s + 1) / 2 : -((-s + 1) / 2); break;  // PTX vavrg: a half rounds away from zero
      case AVGU: r = (s + 1) / 2; break;
      case HADD: r = s / 2; break;
      case ABSDIFF: r = x > y ? x - y : y - x; break;
      case SAD: sum += (unsigned int)(x > y ? x - y : y - x); break;
      case MAX: r = x > y ? x : y; break;
      case MIN: r = x < y ? x : y; break;
      case CMP: r = holds(f.cmp, x, y) ? (1 << f.bits) - 1 : 0; break;
      case SET: r = holds(f.cmp, x, y) ? 1 : 0; break;
    }
    result |= ((unsigned int)r & ((1u << f.bits) - 1u)) << shift;
  }
  return f.kind == SAD ? sum : result;
}

// Words whose lanes take the edge values: every pair of edge values meets in lane 0 (and in lane 3 of bytes).
static std::vector<unsigned int> edge_words() {
  const unsigned int halves[] = {0, 1, 2, 0x3fff, 0x4000, 0x7ffe, 0x7fff, 0x8000, 0x8001, 0xc000, 0xfffe, 0xffff};
  const unsigned int bytes[] = {0, 1, 2, 0x3f, 0x40, 0x7e, 0x7f, 0x80, 0x81, 0xc0, 0xfe, 0xff};
  const int n = 12;
  std::vector<unsigned int> words;
  for (int i = 0; i < n; ++i) words.push_back(halves[i] | halves[(i * 7 + 5) % n] << 16);
  for (int i = 0; i < n; ++i)
    words.push_back(bytes[i] | bytes[(i + 3) % n] << 8 | bytes[(i * 5 + 1) % n] << 16 | bytes[n - 1 - i] << 24);
  unsigned int state = 0x2545f491u;
  for (int i = 0; i < 12; ++i) words.push_back(state = state * 1103515245u + 12345u);
  return words;
}

int main() {
  std::vector<unsigned int> words = edge_words(), in_a, in_b;
  for (unsigned int a : words)
    for (unsigned int b : words) {
      in_a.push_back(a);
      in_b.push_back(b);
    }
  const int pairs = (int)in_a.size();
  std::vector<unsigned int> ref((size_t)pairs * kCount);
  unsigned long long h = 1469598103934665603ULL;
  for (int p = 0; p < pairs; ++p)
    for (int k = 0; k < kCount; ++k) {
      ref[(size_t)p * kCount + k] = reference(kFunctions[k], in_a[p], in_b[p]);
      h = (h ^ ref[(size_t)p * kCount + k]) * 1099511628211ULL;
    }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("simd_in_a_word: PASS checksum=%016llx\n", h);
  return 0;
#else
  unsigned int *d_a, *d_b, *d_out;
  CHECK(cudaMalloc(&d_a, pairs * sizeof(unsigned int)));
  CHECK(cudaMalloc(&d_b, pairs * sizeof(unsigned int)));
  CHECK(cudaMalloc(&d_out, ref.size() * sizeof(unsigned int)));
  CHECK(cudaMemcpy(d_a, in_a.data(), pairs * sizeof(unsigned int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, in_b.data(), pairs * sizeof(unsigned int), cudaMemcpyHostToDevice));
  simd_kernel<<<(pairs + 127) / 128, 128>>>(d_a, d_b, d_out, pairs);
  CHECK(cudaGetLastError());
  std::vector<unsigned int> got(ref.size());
  CHECK(cudaMemcpy(got.data(), d_out, got.size() * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_out));
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != ref[i]) {
      const int p = (int)(i / kCount), k = (int)(i % kCount);
      std::printf("simd_in_a_word: FAIL %s(0x%08x, 0x%08x) = 0x%08x, expected 0x%08x\n", kFunctions[k].name, in_a[p],
                  in_b[p], got[i], ref[i]);
      return 1;
    }
  }
  std::printf("simd_in_a_word: PASS checksum=%016llx\n", h);
  return 0;
#endif
}
