// helper_math.h for HIP, written by hipify-py: the vector math of NVIDIA's CUDA samples (dot, length, normalize,
// cross, lerp, clamp, ... on float2/3/4, and make_floatN from a scalar or another vector), with the behaviour NVIDIA
// documents. HIP's vector types have the arithmetic operators themselves (a + b, a * s, s * a, a += b, -a), so only
// the functions are defined here.
#ifndef HIPIFY_SAMPLES_HELPER_MATH_H
#define HIPIFY_SAMPLES_HELPER_MATH_H

#include <hip/hip_runtime.h>
#include <math.h>

#define HIPIFY_HD inline __host__ __device__

// (fminf, fmaxf, min, max and rsqrtf on the host come with HIP's headers.)

HIPIFY_HD float lerp(float a, float b, float t) { return a + t * (b - a); }
HIPIFY_HD float clamp(float f, float a, float b) { return fmaxf(a, fminf(f, b)); }
HIPIFY_HD int clamp(int f, int a, int b) { return max(a, min(f, b)); }
HIPIFY_HD unsigned int clamp(unsigned int f, unsigned int a, unsigned int b) { return f < a ? a : (f > b ? b : f); }
HIPIFY_HD float fracf(float v) { return v - floorf(v); }
HIPIFY_HD float smoothstep(float a, float b, float x) {
  float y = clamp((x - a) / (b - a), 0.0f, 1.0f);
  return y * y * (3.0f - 2.0f * y);
}

HIPIFY_HD float2 make_float2(float s) { return make_float2(s, s); }
HIPIFY_HD float2 make_float2(float3 a) { return make_float2(a.x, a.y); }
HIPIFY_HD float2 make_float2(int2 a) { return make_float2(float(a.x), float(a.y)); }
HIPIFY_HD float2 make_float2(uint2 a) { return make_float2(float(a.x), float(a.y)); }
HIPIFY_HD float3 make_float3(float s) { return make_float3(s, s, s); }
HIPIFY_HD float3 make_float3(float2 a) { return make_float3(a.x, a.y, 0.0f); }
HIPIFY_HD float3 make_float3(float2 a, float s) { return make_float3(a.x, a.y, s); }
HIPIFY_HD float3 make_float3(float4 a) { return make_float3(a.x, a.y, a.z); }
HIPIFY_HD float3 make_float3(int3 a) { return make_float3(float(a.x), float(a.y), float(a.z)); }
HIPIFY_HD float3 make_float3(uint3 a) { return make_float3(float(a.x), float(a.y), float(a.z)); }
HIPIFY_HD float4 make_float4(float s) { return make_float4(s, s, s, s); }
HIPIFY_HD float4 make_float4(float3 a) { return make_float4(a.x, a.y, a.z, 0.0f); }
HIPIFY_HD float4 make_float4(float3 a, float w) { return make_float4(a.x, a.y, a.z, w); }
HIPIFY_HD float4 make_float4(int4 a) { return make_float4(float(a.x), float(a.y), float(a.z), float(a.w)); }
HIPIFY_HD float4 make_float4(uint4 a) { return make_float4(float(a.x), float(a.y), float(a.z), float(a.w)); }
HIPIFY_HD int2 make_int2(int s) { return make_int2(s, s); }
HIPIFY_HD int2 make_int2(float2 a) { return make_int2(int(a.x), int(a.y)); }
HIPIFY_HD int3 make_int3(int s) { return make_int3(s, s, s); }
HIPIFY_HD int3 make_int3(float3 a) { return make_int3(int(a.x), int(a.y), int(a.z)); }
HIPIFY_HD int4 make_int4(int s) { return make_int4(s, s, s, s); }
HIPIFY_HD int4 make_int4(float4 a) { return make_int4(int(a.x), int(a.y), int(a.z), int(a.w)); }

HIPIFY_HD float2 fminf(float2 a, float2 b) { return make_float2(fminf(a.x, b.x), fminf(a.y, b.y)); }
HIPIFY_HD float2 fmaxf(float2 a, float2 b) { return make_float2(fmaxf(a.x, b.x), fmaxf(a.y, b.y)); }
HIPIFY_HD float2 lerp(float2 a, float2 b, float t) { return a + t * (b - a); }
HIPIFY_HD float2 clamp(float2 v, float a, float b) { return make_float2(clamp(v.x, a, b), clamp(v.y, a, b)); }
HIPIFY_HD float2 clamp(float2 v, float2 a, float2 b) { return make_float2(clamp(v.x, a.x, b.x), clamp(v.y, a.y, b.y)); }
HIPIFY_HD float dot(float2 a, float2 b) { return a.x * b.x + a.y * b.y; }
HIPIFY_HD float length(float2 v) { return sqrtf(dot(v, v)); }
HIPIFY_HD float2 normalize(float2 v) { return v * rsqrtf(dot(v, v)); }
HIPIFY_HD float2 floorf(float2 v) { return make_float2(floorf(v.x), floorf(v.y)); }
HIPIFY_HD float2 fracf(float2 v) { return make_float2(fracf(v.x), fracf(v.y)); }
HIPIFY_HD float2 fmodf(float2 a, float2 b) { return make_float2(fmodf(a.x, b.x), fmodf(a.y, b.y)); }
HIPIFY_HD float2 fabs(float2 v) { return make_float2(fabsf(v.x), fabsf(v.y)); }
HIPIFY_HD float2 smoothstep(float2 a, float2 b, float2 x) { return make_float2(smoothstep(a.x, b.x, x.x), smoothstep(a.y, b.y, x.y)); }
HIPIFY_HD float3 fminf(float3 a, float3 b) { return make_float3(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z)); }
HIPIFY_HD float3 fmaxf(float3 a, float3 b) { return make_float3(fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z)); }
HIPIFY_HD float3 lerp(float3 a, float3 b, float t) { return a + t * (b - a); }
HIPIFY_HD float3 clamp(float3 v, float a, float b) { return make_float3(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b)); }
HIPIFY_HD float3 clamp(float3 v, float3 a, float3 b) { return make_float3(clamp(v.x, a.x, b.x), clamp(v.y, a.y, b.y), clamp(v.z, a.z, b.z)); }
HIPIFY_HD float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
HIPIFY_HD float length(float3 v) { return sqrtf(dot(v, v)); }
HIPIFY_HD float3 normalize(float3 v) { return v * rsqrtf(dot(v, v)); }
HIPIFY_HD float3 floorf(float3 v) { return make_float3(floorf(v.x), floorf(v.y), floorf(v.z)); }
HIPIFY_HD float3 fracf(float3 v) { return make_float3(fracf(v.x), fracf(v.y), fracf(v.z)); }
HIPIFY_HD float3 fmodf(float3 a, float3 b) { return make_float3(fmodf(a.x, b.x), fmodf(a.y, b.y), fmodf(a.z, b.z)); }
HIPIFY_HD float3 fabs(float3 v) { return make_float3(fabsf(v.x), fabsf(v.y), fabsf(v.z)); }
HIPIFY_HD float3 smoothstep(float3 a, float3 b, float3 x) { return make_float3(smoothstep(a.x, b.x, x.x), smoothstep(a.y, b.y, x.y), smoothstep(a.z, b.z, x.z)); }
HIPIFY_HD float4 fminf(float4 a, float4 b) { return make_float4(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z), fminf(a.w, b.w)); }
HIPIFY_HD float4 fmaxf(float4 a, float4 b) { return make_float4(fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z), fmaxf(a.w, b.w)); }
HIPIFY_HD float4 lerp(float4 a, float4 b, float t) { return a + t * (b - a); }
HIPIFY_HD float4 clamp(float4 v, float a, float b) { return make_float4(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b), clamp(v.w, a, b)); }
HIPIFY_HD float4 clamp(float4 v, float4 a, float4 b) { return make_float4(clamp(v.x, a.x, b.x), clamp(v.y, a.y, b.y), clamp(v.z, a.z, b.z), clamp(v.w, a.w, b.w)); }
HIPIFY_HD float dot(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
HIPIFY_HD float length(float4 v) { return sqrtf(dot(v, v)); }
HIPIFY_HD float4 normalize(float4 v) { return v * rsqrtf(dot(v, v)); }
HIPIFY_HD float4 floorf(float4 v) { return make_float4(floorf(v.x), floorf(v.y), floorf(v.z), floorf(v.w)); }
HIPIFY_HD float4 fracf(float4 v) { return make_float4(fracf(v.x), fracf(v.y), fracf(v.z), fracf(v.w)); }
HIPIFY_HD float4 fmodf(float4 a, float4 b) { return make_float4(fmodf(a.x, b.x), fmodf(a.y, b.y), fmodf(a.z, b.z), fmodf(a.w, b.w)); }
HIPIFY_HD float4 fabs(float4 v) { return make_float4(fabsf(v.x), fabsf(v.y), fabsf(v.z), fabsf(v.w)); }
HIPIFY_HD float4 smoothstep(float4 a, float4 b, float4 x) { return make_float4(smoothstep(a.x, b.x, x.x), smoothstep(a.y, b.y, x.y), smoothstep(a.z, b.z, x.z), smoothstep(a.w, b.w, x.w)); }
HIPIFY_HD float3 cross(float3 a, float3 b) { return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
HIPIFY_HD float3 reflect(float3 i, float3 n) { return i - 2.0f * n * dot(n, i); }

#undef HIPIFY_HD

#endif  // HIPIFY_SAMPLES_HELPER_MATH_H
