// The project's element types: half and 8-bit float storage, read by every kernel of the program.
#pragma once
#include <cuda_fp16.h>
#include <cuda_fp8.h>

struct Sample {
  __half weight;
  int value;
};

__device__ inline int weighted(const Sample& s) { return s.value * static_cast<int>(__half2float(s.weight)); }
