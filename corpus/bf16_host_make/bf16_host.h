// Host helpers on CUDA's bfloat16 type, built by the host compiler (CUDA's cuda_bf16.h is plain C++).
#pragma once
#include <cstddef>

#include <cuda_bf16.h>

void pack_bf16(const float* in, __nv_bfloat16* out, std::size_t n);      // pack.cpp: a rule of its own running $(CXX)
double sum_bf16(const __nv_bfloat16* values, std::size_t n);             // sum.cpp: make's built-in rule
bool double_on_device(__nv_bfloat16* values, std::size_t n);            // bf16_host_make.cu
