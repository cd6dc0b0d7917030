/* Plain C compiled by gcc; one function asks the CUDA runtime (its C API) for the free device memory. */
#include <cuda_runtime_api.h>

#include "shared.h"

long long sum_of(const int* values, int n) {
  long long s = 0;
  for (int i = 0; i < n; ++i) s += values[i];
  return s;
}

int max_of(const int* values, int n) {
  int m = values[0];
  for (int i = 1; i < n; ++i)
    if (values[i] > m) m = values[i];
  return m;
}

int device_memory_mib(void) {
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return -1;
  return (int)(free_bytes >> 20);
}
