// Declared before the compatibility header, whose HIP section (compiled under HIP-CPU, which defines __HIP__)
// names them: an AMD builtin and a half-precision max/min HIP-CPU lacks.
#pragma once
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
inline void __builtin_amdgcn_s_sleep(int) noexcept {}
inline __half __hmax(__half a, __half b) noexcept { return __half2float(a) < __half2float(b) ? b : a; }
inline __half __hmin(__half a, __half b) noexcept { return __half2float(b) < __half2float(a) ? b : a; }
template <class X, class Y>
inline __half2 make_half2(X x, Y y) noexcept { return __half2{__half(static_cast<float>(x)), __half(static_cast<float>(y))}; }
