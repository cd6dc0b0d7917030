// C++ compiled by g++, with the CUDA runtime's headers on its include path (-I$(CUDA_HOME)/include).
#include <cstdio>
#include <cuda_runtime.h>

#include "shared.h"

extern "C" void report(const char* what, long long value) {
  int device = -1;
  if (cudaGetDevice(&device) != cudaSuccess) device = -1;
  std::fprintf(stderr, "%s = %lld (device %d)\n", what, value, device);
}
