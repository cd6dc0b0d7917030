// The header every file includes: the platform is chosen by the project's own options.
#pragma once
#include <cstdio>
#if defined(OWN_USE_HIP)
#include "vendors/hip.h"
#elif defined(OWN_USE_OTHER)
#include "vendors/other.h"
#else
#include "vendors/cuda.h"
#endif
#ifdef OWN_USE_ROCM
#define CUDART_INF_F __int_as_float(0x7f800000)
#else
#include <math_constants.h>
#endif

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

// A struct whose members are named like CUDA device functions (dsub is one since CUDA 13).
struct Quantizer {
  int d;
  int dsub;
  int M;
};

// Host code passing the members on: the project's own names, never CUDA's.
inline int host_code_size(const Quantizer& q, const Quantizer* p) {
  int dsub = q.dsub;  // a local named like it
  return q.M * dsub + p->dsub - q.d / q.M;
}

inline int host_scaled(int dsub) { return 2 * dsub; }  // a parameter named like it

// Device code reading the member.
__device__ __forceinline__ int device_code_size(const Quantizer& q) { return q.M * q.dsub; }

// A guard: a value the program never asks for stops it (the project's __trap, or CUDA's).
__device__ __forceinline__ float checked_inf(int ok) {
  if (!ok) __trap();
  return CUDART_INF_F;
}

// A body whose #if branches each open a loop, sharing one closing brace, with a call of an API HIP lacks: what is
// left out of it must stay inside it.
template <int WIDE>
__device__ void decode_scales(const unsigned char* in, float* out, int n) {
#if defined(OWN_WIDE_TILES)
  for (int i = 0; i < n; i += 2) {
    if (i + 1 < n) {
#else
  for (int i = 0; i < n; ++i) {
    {
#endif
      out[i] = (float)__nv_cvt_e8m0_to_bf16raw(in[i]).x;
    }
  }
}

// Definitions after it, which every file uses.
__device__ __forceinline__ int tile_sum(int a, int b) { return a + b; }
struct TileStats {
  int count;
  int total;
};
__device__ __forceinline__ void add_tile(TileStats& s, int v) {
  s.count += 1;
  s.total = tile_sum(s.total, v);
}
