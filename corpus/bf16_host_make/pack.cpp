// Compiled by g++ through a rule of the Makefile: host code on bfloat16 values.
#include "bf16_host.h"

void pack_bf16(const float* in, __nv_bfloat16* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = __float2bfloat16(in[i]);
}
