// CUDA 12.8's 6-bit float types (cuda_fp6.h) and ROCm 7.2's hip/hip_fp6.h.

#include <hip/hip_runtime.h>
#include <hip/hip_fp6.h>

__hip_fp6x2_e3m2 pack(float2 v) { return __hip_fp6x2_e3m2(v); }

__hip_fp6_storage_t raw(float f) {
  return __hip_cvt_float_to_fp6(f, __HIP_E2M3, hipRoundNearest);
}
