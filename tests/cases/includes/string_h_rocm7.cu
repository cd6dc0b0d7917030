// CUDA's runtime header declares <string.h>'s functions (it includes it); ROCm 7's HIP runtime header no
// longer does (6.x's did): a host call of memcpy or strlen gets <cstring> after the HIP runtime include.
#include <cuda_runtime.h>
#include <vector>

void pack(std::vector<char>& out, const char* name, const float* values, int n) {
  size_t length = strlen(name);
  out.resize(length + n * sizeof(float));
  memcpy(out.data(), name, length);
  std::memcpy(out.data() + length, values, n * sizeof(float));
  cudaDeviceSynchronize();
}
