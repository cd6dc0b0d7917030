// Drives ggml's translated src/ggml-cuda/argmax.cu on HIP-CPU: argmax_f32 (one block per row; a strided scan,
// then width-32 __shfl_xor_sync reductions within and across warps through shared memory) against the host's
// argmax of each row. Distinct values, so the index is unique. Prints PASS or FAIL.
#include "argmax.cu"

#include <cstdio>
#include <vector>

int main() {
  int failed = 0, checked = 0;
  const int64_t nrows = 3;
  for (const int64_t ncols : {1, 31, 100, 1000, 4099}) {
    for (const int threads : {32, 64, 96, 256, 1024}) {
      std::vector<float> x(nrows * ncols);
      std::vector<int32_t> got(nrows, -7);
      for (int64_t i = 0; i < nrows * ncols; ++i) x[i] = static_cast<float>((i * 7919) % 10007) - 5000.0f;
      float* dx = nullptr;
      int32_t* dd = nullptr;
      hipMalloc(&dx, x.size() * sizeof(float));
      hipMalloc(&dd, nrows * sizeof(int32_t));
      hipMemcpy(dx, x.data(), x.size() * sizeof(float), hipMemcpyHostToDevice);
      hipLaunchKernelGGL(argmax_f32, dim3(nrows), dim3(threads), 0, 0, dx, dd, ncols);
      hipDeviceSynchronize();
      hipMemcpy(got.data(), dd, nrows * sizeof(int32_t), hipMemcpyDeviceToHost);
      for (int64_t r = 0; r < nrows; ++r) {
        int64_t best = 0;
        for (int64_t c = 1; c < ncols; ++c) best = x[r * ncols + c] > x[r * ncols + best] ? c : best;
        ++checked;
        if (got[r] != best) {
          std::printf("argmax_f32 ncols=%lld threads=%d row %lld: %d, expected %lld\n", (long long)ncols, threads,
                      (long long)r, got[r], (long long)best);
          ++failed;
        }
      }
      hipFree(dx);
      hipFree(dd);
    }
  }
  std::printf("ggml argmax_f32 (%d rows: 5 widths x 5 block sizes): %s\n", checked, failed ? "FAIL" : "PASS");
  return failed ? 1 : 0;
}
