// vec_helpers.h: the project's own helpers, as CUDA code often carries them (CUDA gives float2 and float4 no
// arithmetic and has no atomicMax for float). HIP's vector types define * and / of two vectors and the compound
// assignments, and HIP's headers define atomicMax(float*, float): under HIP these are ambiguous or redefinitions.
#pragma once
#include <cuda_runtime.h>

inline __host__ __device__ float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
inline __host__ __device__ float2 operator*(float2 a, float2 b) { return make_float2(a.x * b.x, a.y * b.y); }
inline __host__ __device__ float2 operator/(float2 a, float2 b) { return make_float2(a.x / b.x, a.y / b.y); }
inline __host__ __device__ void operator+=(float4& a, const float4& b) {
  a.x += b.x;
  a.y += b.y;
  a.z += b.z;
  a.w += b.w;
}
inline __host__ __device__ void operator*=(float2& a, float2 b) {
  a.x *= b.x;
  a.y *= b.y;
}

// atomicMax for float through the integer compare-and-swap (CUDA has none for float).
__device__ float atomicMax(float* address, float val) {
  int* bits = (int*)address;
  int old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}
