// hipify-py-flags: --rocm 6.4
// ROCm 6.4 has no hip_fp4.h (it came with 7.x): the header stays and each use of its types is
// reported as needing a newer ROCm, as for any API the target release lacks.
#include <cuda_fp8.h>
#include <cuda_fp4.h>

template <typename T> struct Packing { static constexpr int per_byte = 1; };
template <> struct Packing<__nv_fp4_e2m1> { static constexpr int per_byte = 2; using type = __nv_fp4x2_e2m1; };

__nv_fp8_e4m3 narrow(float f) { return __nv_fp8_e4m3(f); }
