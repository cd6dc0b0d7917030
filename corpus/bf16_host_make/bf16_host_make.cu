// bf16_host_make: a Makefile whose host objects use bfloat16 (pack.cpp by a rule of its own running $(CXX),
// sum.cpp by make's built-in rule with CPPFLAGS += -I$(CUDA_HOME)/include); CUDA's cuda_bf16.h is plain C++,
// so g++ compiles them; the kernel doubles bf16 values. Every value (a multiple of 0.5 below 128, then doubled)
// is exact in bfloat16, so the sums are compared for equality.
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "bf16_host.h"

__global__ void double_values(__nv_bfloat16* values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] = __float2bfloat16(__bfloat162float(values[i]) * 2.0f);
}

bool double_on_device(__nv_bfloat16* values, std::size_t n) {
  __nv_bfloat16* device = nullptr;
  if (cudaMalloc(&device, n * sizeof(__nv_bfloat16)) != cudaSuccess) return false;
  bool ok = cudaMemcpy(device, values, n * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice) == cudaSuccess;
  double_values<<<(unsigned)((n + 127) / 128), 128>>>(device, (int)n);
  ok = ok && cudaGetLastError() == cudaSuccess;
  ok = ok && cudaMemcpy(values, device, n * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost) == cudaSuccess;
  cudaFree(device);
  return ok;
}

int main() {
  const std::size_t n = 1000;
  float* inputs = (float*)std::malloc(n * sizeof(float));
  __nv_bfloat16* values = (__nv_bfloat16*)std::malloc(n * sizeof(__nv_bfloat16));
  double expected = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    inputs[i] = (float)((int)((i * 37) % 255) - 127) * 0.5f;
    expected += 2.0 * inputs[i];
  }
  pack_bf16(inputs, values, n);
  long long reference = (long long)(expected * 2.0);
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("bf16_host_make: PASS checksum=%lld\n", reference);
  return 0;
#endif
  if (sum_bf16(values, n) * 2.0 != expected) {
    std::printf("bf16_host_make: FAIL the packed values do not sum to the inputs' sum\n");
    return 1;
  }
  if (!double_on_device(values, n)) {
    std::printf("bf16_host_make: FAIL the device step failed\n");
    return 1;
  }
  double got = sum_bf16(values, n);
  if (got != expected) {
    std::printf("bf16_host_make: FAIL sum %.1f != %.1f\n", got, expected);
    return 1;
  }
  std::printf("bf16_host_make: PASS checksum=%lld\n", (long long)(got * 2.0));
  std::free(inputs);
  std::free(values);
  return 0;
}
