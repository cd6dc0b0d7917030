// CUDA 12.8's 4-bit float types (cuda_fp4.h) have ROCm 7.2 counterparts in hip/hip_fp4.h; their
// types, enumerators and conversions are table rows generated from both headers.

#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>
#include <hip/hip_fp4.h>

template <typename T> struct Packing { static constexpr int per_byte = 1; };
template <> struct Packing<__hip_fp4_e2m1> { static constexpr int per_byte = 2; using type = __hip_fp4x2_e2m1; };

__hip_fp4x2_e2m1 pack(float2 v) { return __hip_fp4x2_e2m1{v}; }

__hip_fp4x2_storage_t raw(float2 v) {
  return __hip_cvt_float2_to_fp4x2(v, __HIP_E2M1, hipRoundNearest);
}
