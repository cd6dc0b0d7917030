// Stand-in (bench/cpu_kernels.py's second pass only): HIP-CPU has no bfloat16. A storage type converting to and
// from float (rounded to nearest even), so that kernels computing in float parse and run; not HIP's header.
#pragma once
#include <cstdint>
#include <cstring>
struct __hip_bfloat16 {
  std::uint16_t data;
  __hip_bfloat16() = default;
  __hip_bfloat16(float f) noexcept {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    data = (u & 0x7fffffffu) > 0x7f800000u ? 0x7fc0 : static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
  }
  operator float() const noexcept {
    const std::uint32_t u = static_cast<std::uint32_t>(data) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
};
struct __hip_bfloat162 {
  __hip_bfloat16 x, y;
};
inline float __bfloat162float(__hip_bfloat16 v) noexcept { return v; }
inline __hip_bfloat16 __float2bfloat16(float f) noexcept { return f; }
inline __hip_bfloat16 __float2bfloat16_rn(float f) noexcept { return f; }
inline __hip_bfloat162 __floats2bfloat162_rn(float a, float b) noexcept { return {a, b}; }
inline __hip_bfloat162 __float2bfloat162_rn(float a) noexcept { return {a, a}; }
inline float2 __bfloat1622float2(__hip_bfloat162 v) noexcept { return float2{float(v.x), float(v.y)}; }
