// host_objects_make: a Makefile that builds host objects with the host compilers (stats.c with gcc, calling the
// CUDA runtime's C API through cuda_runtime_api.h; report.cpp with g++ and -I$(CUDA_HOME)/include) and links with
// g++ and -lcudart; nvcc found at run time ($(shell which nvcc 2>/dev/null), an empty value in another branch, an
// ifeq ($(NVCC),) guard), its lines naming no architecture and nvcc's own options (-t=0, --use_fast_math); a
// header shared by the C and CUDA code keeps its device qualifiers behind #ifdef __CUDACC__.
#include <cstdio>
#include <cstdlib>

#include "shared.h"

int main() {
  const int n = 5000, factor = 3;
  int* values = (int*)std::malloc(n * sizeof(int));
  int* expected = (int*)std::malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    values[i] = (i * 37) % 1001 - 500;
    expected[i] = scaled(values[i], factor);
  }
  long long checksum = sum_of(expected, n) * 1000 + max_of(expected, n);
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("host_objects_make: PASS checksum=%lld\n", checksum);
  return 0;
#endif
  if (!scale_on_device(values, n, factor)) {
    std::printf("host_objects_make: FAIL the device step failed\n");
    return 1;
  }
  for (int i = 0; i < n; ++i) {
    if (values[i] != expected[i]) {
      std::printf("host_objects_make: FAIL at %d: %d != %d\n", i, values[i], expected[i]);
      return 1;
    }
  }
  if (device_memory_mib() < 0) {
    std::printf("host_objects_make: FAIL cudaMemGetInfo\n");
    return 1;
  }
  long long got = sum_of(values, n) * 1000 + max_of(values, n);
  report("checksum", got);
  std::printf("host_objects_make: PASS checksum=%lld\n", got);
  std::free(values);
  std::free(expected);
  return 0;
}
