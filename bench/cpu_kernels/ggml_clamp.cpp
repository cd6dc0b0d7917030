// Drives ggml's translated src/ggml-cuda/clamp.cu on HIP-CPU: op_clamp_kernel<float> (dst = min(max(x, lo), hi)
// per element, a bounds check for the last block) against the host's clamp. Prints PASS or FAIL.
#include "clamp.cu"

#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
  int failed = 0;
  for (const int k : {1, 255, 257, 1000}) {
    std::vector<float> x(k), y(k + 1, 12345.0f);
    for (int i = 0; i < k; ++i) x[i] = 0.5f * static_cast<float>(i % 41) - 10.0f;
    float *dx = nullptr, *dy = nullptr;
    hipMalloc(&dx, k * sizeof(float));
    hipMalloc(&dy, (k + 1) * sizeof(float));
    hipMemcpy(dx, x.data(), k * sizeof(float), hipMemcpyHostToDevice);
    hipMemcpy(dy, y.data(), (k + 1) * sizeof(float), hipMemcpyHostToDevice);
    const int blocks = (k + CUDA_CLAMP_BLOCK_SIZE - 1) / CUDA_CLAMP_BLOCK_SIZE;
    hipLaunchKernelGGL(op_clamp_kernel<float>, dim3(blocks), dim3(CUDA_CLAMP_BLOCK_SIZE), 0, 0, dx, dy, -3.0f, 4.5f, k);
    hipDeviceSynchronize();
    hipMemcpy(y.data(), dy, (k + 1) * sizeof(float), hipMemcpyDeviceToHost);
    for (int i = 0; i < k; ++i) {
      if (y[i] != std::min(std::max(x[i], -3.0f), 4.5f)) {
        std::printf("op_clamp_kernel k=%d: dst[%d] = %g for x = %g\n", k, i, y[i], x[i]);
        ++failed;
        break;
      }
    }
    if (y[k] != 12345.0f) {  // past the end: the bounds check must leave it
      std::printf("op_clamp_kernel k=%d wrote past the end\n", k);
      ++failed;
    }
    hipFree(dx);
    hipFree(dy);
  }
  std::printf("ggml op_clamp_kernel<float> (4 sizes, bounds): %s\n", failed ? "FAIL" : "PASS");
  return failed ? 1 : 0;
}
