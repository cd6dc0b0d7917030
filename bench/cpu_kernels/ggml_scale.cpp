// Drives ggml's translated src/ggml-cuda/scale.cu on HIP-CPU: scale_f32 (dst = scale * x + bias over a grid-stride
// loop) against the same formula on the host. Built by bench/cpu_kernels.py with the translated tree on the
// include path; prints PASS or FAIL.
#include "scale.cu"

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  int failed = 0;
  for (const int64_t n : {1, 255, 256, 1000, 4097}) {
    std::vector<float> x(n), y(n, -1.0f);
    for (int64_t i = 0; i < n; ++i) x[i] = 0.25f * static_cast<float>(i % 97) - 7.0f;
    float *dx = nullptr, *dy = nullptr;
    hipMalloc(&dx, n * sizeof(float));
    hipMalloc(&dy, n * sizeof(float));
    hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice);
    // Fewer blocks than elements / block size: the grid-stride loop must cover the rest.
    const unsigned blocks = static_cast<unsigned>((n + 255) / 256 > 2 ? 2 : (n + 255) / 256);
    hipLaunchKernelGGL(scale_f32, dim3(blocks), dim3(CUDA_SCALE_BLOCK_SIZE), 0, 0, dx, dy, 1.5f, -0.5f, n);
    hipDeviceSynchronize();
    hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost);
    for (int64_t i = 0; i < n; ++i) {
      if (std::fabs(y[i] - (1.5f * x[i] - 0.5f)) > 1e-6f) {
        std::printf("scale_f32 n=%lld: dst[%lld] = %g, expected %g\n", (long long)n, (long long)i, y[i],
                    1.5f * x[i] - 0.5f);
        ++failed;
        break;
      }
    }
    hipFree(dx);
    hipFree(dy);
  }
  std::printf("ggml scale_f32 (5 sizes, grid-stride): %s\n", failed ? "FAIL" : "PASS");
  return failed ? 1 : 0;
}
