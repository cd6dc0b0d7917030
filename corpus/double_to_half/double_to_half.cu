// double_to_half: __double2half on the device, checked bit for bit against a CPU rounding of each double straight
// to the nearest half (ties to even), including values that rounding through float would get wrong (a double just
// above a tie between two halves, which float's 24 bits turn into an exact tie), subnormal halves, overflow to
// infinity and negative zero.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t err_ = (call);                                                                   \
    if (err_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));         \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

__global__ void convert(const double* in, unsigned short* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half h = __double2half(in[i]);
    out[i] = __half_as_ushort(h);
  }
}

// The nearest half's bits (ties to even), from the double's exact value: no float in between.
static unsigned short reference_bits(double x) {
  unsigned short sign = std::signbit(x) ? 0x8000 : 0;
  double a = std::fabs(x);
  if (std::isnan(x)) return 0x7e00;
  if (a >= 65520.0) return sign | 0x7c00;  // rounds to infinity
  int e;
  std::frexp(a, &e);                       // a = m * 2^e, 0.5 <= m < 1
  int exponent = e - 1;                    // a = 1.f * 2^exponent
  if (exponent < -14) exponent = -14;      // subnormal halves share the smallest exponent
  double ulp = std::ldexp(1.0, exponent - 10);
  double q = a / ulp;                      // exact: a power-of-two scaling
  double r = std::nearbyint(q);            // the default rounding mode: ties to even
  unsigned long long m = (unsigned long long)r;
  if (m == 0) return sign;
  int biased = exponent + 15;
  if (m >= 2048) {                         // rounded up to the next binade
    m >>= 1;
    ++biased;
  }
  if (m < 1024) return sign | (unsigned short)m;  // subnormal
  if (biased >= 31) return sign | 0x7c00;
  return sign | (unsigned short)((biased << 10) | (m - 1024));
}

int main() {
  std::vector<double> in = {0.0, -0.0, 1.0, -2.5, 0.1, 3.141592653589793, 65504.0, 65519.99, 65520.0, -1e6,
                            6.103515625e-05, 5.960464477539063e-08, 2.9802322387695312e-08, 3.0e-08, 1e-12,
                            1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40),   // just above a tie: rounds up
                            1.0 + std::ldexp(1.0, -11),                            // a tie: to even (1.0)
                            1.0 + 3 * std::ldexp(1.0, -11),                        // a tie: to even (up)
                            -(2048.0 + 1.0 + std::ldexp(1.0, -30))};               // above a tie, negative
  for (int i = 0; i < 45; ++i) in.push_back(std::ldexp(1.0 + i / 64.0, i - 22) * (i % 2 ? -1 : 1));
  int n = (int)in.size();
  std::vector<unsigned short> ref(n);
  unsigned long long h = 1469598103934665603ULL;
  for (int i = 0; i < n; ++i) {
    ref[i] = reference_bits(in[i]);
    h = (h ^ ref[i]) * 1099511628211ULL;
  }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("double_to_half: PASS checksum=%016llx\n", h);
  return 0;
#else
  double* d_in;
  unsigned short* d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(double)));
  CHECK(cudaMalloc(&d_out, n * sizeof(unsigned short)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  convert<<<1, 128>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  std::vector<unsigned short> got(n);
  CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(unsigned short), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  for (int i = 0; i < n; ++i) {
    if (got[i] != ref[i]) {
      std::printf("double_to_half: FAIL %.17g -> %04x, expected %04x\n", in[i], got[i], ref[i]);
      return 1;
    }
  }
  std::printf("double_to_half: PASS checksum=%016llx\n", h);
  return 0;
#endif
}
