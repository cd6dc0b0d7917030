// hipify-py-flags: --engine clang
#include <cuda_runtime.h>

// The user's own overload shares a CUDA API's name: calls to it stay, CUDA's own calls
// are renamed. A member function with a CUDA name does not hide the global API either.
cudaError_t cudaMalloc(int* counter) {
  ++*counter;
  return cudaSuccess;
}

struct Pool {
  void cudaFree() {}
};

void use(Pool& pool, int* counter) {
  float* device = nullptr;
  cudaMalloc(counter);
  cudaMalloc(&device, 1024);
  pool.cudaFree();
  cudaFree(device);
}
