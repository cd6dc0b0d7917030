#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void k(half2* out, __nv_bfloat16* b, float* f) {
  half2 res2;
  __nv_bfloat16 acc, other;
  float2 v;
  for (int i = 0; i < 4; ++i) {
    res2 = {};
    acc = { };
    v = {};
    if (i) other = {}; else acc = {};
  }
  half2 init = {};
  out[0] = res2 + init;
  b[0] = acc + other;
  f[0] = v.x;
}
