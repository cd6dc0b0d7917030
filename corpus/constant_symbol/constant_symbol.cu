// constant_symbol: __constant__ arrays and structs, cudaMemcpyToSymbol (with offset),
// cudaMemcpyFromSymbol, __device__ globals, cudaGetSymbolAddress, cudaGetSymbolSize,
// cudaMemcpyToSymbolAsync.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,        \
                   cudaGetErrorString(err_));                                         \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

struct Poly {
  int degree;
  float coef[8];
};

__constant__ Poly c_poly;
__constant__ int c_lut[16];
__device__ int d_counter;
__device__ float d_results[256];

__global__ void eval(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = (float)(i % 8) * 0.5f;
  float acc = 0.0f;
  for (int k = c_poly.degree; k >= 0; --k) acc = acc * x + c_poly.coef[k];
  d_results[i] = acc + (float)c_lut[i % 16];
  atomicAdd(&d_counter, 1);
}

int main() {
  const int n = 256;
  Poly p;
  p.degree = 3;
  for (int k = 0; k < 8; ++k) p.coef[k] = (float)(k + 1);
  int lut[16];
  for (int k = 0; k < 16; ++k) lut[k] = k * k;
  double ref = 0;
  for (int i = 0; i < n; ++i) {
    float x = (float)(i % 8) * 0.5f, acc = 0.0f;
    for (int k = p.degree; k >= 0; --k) acc = acc * x + p.coef[k];
    ref += acc + (float)(i % 16 < 8 ? (i % 16) * (i % 16) : 100 + i % 16);
  }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("constant_symbol: PASS checksum=%.3f/%d\n", ref, n);
  return 0;
#endif
  CHECK(cudaMemcpyToSymbol(c_poly, &p, sizeof(Poly)));
  CHECK(cudaMemcpyToSymbol(c_lut, lut, sizeof(lut)));
  int upper[8];
  for (int k = 0; k < 8; ++k) upper[k] = 100 + 8 + k;
  CHECK(cudaMemcpyToSymbol(c_lut, upper, sizeof(upper), 8 * sizeof(int), cudaMemcpyHostToDevice));
  int zero = 0;
  CHECK(cudaMemcpyToSymbolAsync(d_counter, &zero, sizeof(int), 0, cudaMemcpyHostToDevice, 0));
  eval<<<n / 64, 64>>>(n);
  CHECK(cudaGetLastError());
  float results[n];
  int counter = 0;
  CHECK(cudaMemcpyFromSymbol(results, d_results, sizeof(results)));
  CHECK(cudaMemcpyFromSymbol(&counter, d_counter, sizeof(int), 0, cudaMemcpyDeviceToHost));
  void* addr = nullptr;
  size_t size = 0;
  CHECK(cudaGetSymbolAddress(&addr, d_results));
  CHECK(cudaGetSymbolSize(&size, d_results));
  float first = 0.0f;
  CHECK(cudaMemcpy(&first, addr, sizeof(float), cudaMemcpyDeviceToHost));
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += results[i];
  if (sum != ref || counter != n || size != sizeof(results) || first != results[0]) {
    std::printf("constant_symbol: FAIL %.3f %d\n", sum, counter);
    return 1;
  }
  std::printf("constant_symbol: PASS checksum=%.3f/%d\n", sum, counter);
  return 0;
}
