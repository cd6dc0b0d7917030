#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>
__global__ void k(half2* out, __hip_bfloat16* b, float* f) {
  half2 res2;
  __hip_bfloat16 acc, other;
  float2 v;
  for (int i = 0; i < 4; ++i) {
    res2 = half2{};
    acc = __hip_bfloat16{};
    v = {};
    if (i) other = __hip_bfloat16{}; else acc = __hip_bfloat16{};
  }
  half2 init = {};
  out[0] = res2 + init;
  b[0] = acc + other;
  f[0] = v.x;
}
