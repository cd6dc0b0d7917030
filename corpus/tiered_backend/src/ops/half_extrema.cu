// Warp-wide lane-wise max and min of half pairs through the header's version-dependent half2 helpers; GPUs
// without half arithmetic have no device code for it.
#include "ops.cuh"

namespace {

__global__ void half_extrema_kernel(const half2* in, int pairs, float* out) {
#ifdef TB_FP16_AVAILABLE
  half2 hi = __float2half2_rn(-60000.0f);
  half2 lo = __float2half2_rn(60000.0f);
  for (int i = threadIdx.x; i < pairs; i += blockDim.x) {
    hi = tb_hmax2(hi, in[i]);
    lo = tb_hmin2(lo, in[i]);
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    hi = tb_hmax2(hi, __shfl_xor_sync(0xffffffffu, hi, offset));
    lo = tb_hmin2(lo, __shfl_xor_sync(0xffffffffu, lo, offset));
  }
  if (threadIdx.x == 0) {
    out[0] = fmaxf(__low2float(hi), __high2float(hi));
    out[1] = fminf(__low2float(lo), __high2float(lo));
  }
#else
  NO_DEVICE_CODE;
#endif
}

}  // namespace

void tb_half_extrema(tb_context& ctx, const half2* in, int pairs, float* out) {
  half_extrema_kernel<<<1, 32, 0, ctx.stream>>>(in, pairs, out);
  TB_CHECK(cudaGetLastError());
}
