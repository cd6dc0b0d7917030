// nvcc_steps_make: a Makefile whose steps are nvcc's modes: -dc (relocatable device code), -lib (a static library of
// the device code), -dlink (the explicit device link, linked with the objects), -cuda (the host code, preprocessed,
// a file nothing else uses) and -M (the make dependencies); the program weighs an array on the device through the
// library and checks it against the host.
#include <cstdio>
#include <cstdlib>

#include "steps.h"

int main() {
  const int n = 3000;
  int* values = (int*)std::malloc(n * sizeof(int));
  int* weighted = (int*)std::malloc(n * sizeof(int));
  long long checksum = 0;
  for (int i = 0; i < n; ++i) {
    values[i] = (i * 13) % 101 - 50;
    checksum += (long long)values[i] * host_weight(i) * (i % 10 + 1);
  }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("nvcc_steps_make: PASS checksum=%lld\n", checksum);
  return 0;
#endif
  if (!weigh_on_device(values, weighted, n)) {
    std::printf("nvcc_steps_make: FAIL the device step failed\n");
    return 1;
  }
  long long got = 0;
  for (int i = 0; i < n; ++i) {
    if (weighted[i] != values[i] * host_weight(i)) {
      std::printf("nvcc_steps_make: FAIL at %d: %d != %d\n", i, weighted[i], values[i] * host_weight(i));
      return 1;
    }
    got += (long long)weighted[i] * (i % 10 + 1);
  }
  std::printf("nvcc_steps_make: PASS checksum=%lld\n", got);
  std::free(values);
  std::free(weighted);
  return 0;
}
