#include <hip/hip_runtime.h>

__constant__ float coeffs[8];
__device__ int counter;

void upload(const float* host) {
  hipMemcpyToSymbol(HIP_SYMBOL(coeffs), host, 8 * sizeof(float));
  int zero = 0;
  hipMemcpyToSymbol(HIP_SYMBOL(counter), &zero, sizeof(int), 0, hipMemcpyHostToDevice);
  int back = 0;
  hipMemcpyFromSymbol(&back, HIP_SYMBOL(counter), sizeof(int));
  void* addr = nullptr;
  hipGetSymbolAddress(&addr, HIP_SYMBOL(coeffs));
}
