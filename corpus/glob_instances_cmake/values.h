// Shared by the kernels and the CPU library: CUDA's half type only where the CUDA sources ask for it.
#pragma once
#if defined(GI_IMPL_CUDA)
#include <cuda_fp16.h>
typedef half gi_half;
#else
typedef unsigned short gi_half;  // the CPU library only passes sizes around
#endif

#define GI_ROWS 4
#define GI_COLS 8

#ifdef __cplusplus
extern "C" {
#endif
// The input value at (row, col): dyadic, so every scaled value is exact.
float gi_input(int row, int col);
// Is (row, col) masked out of the softmax (set to -infinity before it)?
int gi_masked(int row, int col);
// The softmax of one row of the masked input, in double precision.
void gi_softmax_reference(int row, double* out);
unsigned long long gi_mix(unsigned long long h, long long v);
#ifdef __cplusplus
}
#endif
int gi_report(const char* name, int pass, unsigned long long checksum, const char* detail);
