// Drives ggml's translated src/ggml-cuda/sumrows.cu on HIP-CPU: reduce_rows_f32 (one block per row; strided
// partial sums, then ggml's block_reduce: width-32 shuffles within warps and across them through shared memory)
// as sum (norm = false) and mean (norm = true), with the block sizes ggml launches it with (32, 128, 512),
// against the host's sums. The values are small integers, so every sum is exact. Prints PASS or FAIL.
#include "sumrows.cu"

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  int failed = 0, checked = 0;
  const int nrows = 4;
  for (const int ncols : {1, 33, 700, 5000}) {
    for (const int threads : {32, 128, 512}) {
      for (const bool mean : {false, true}) {
        std::vector<float> x(static_cast<size_t>(nrows) * ncols), got(nrows, -1.0f);
        for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i * 31 % 17) - 8);
        float *dx = nullptr, *dd = nullptr;
        hipMalloc(&dx, x.size() * sizeof(float));
        hipMalloc(&dd, nrows * sizeof(float));
        hipMemcpy(dx, x.data(), x.size() * sizeof(float), hipMemcpyHostToDevice);
        if (mean) {
          hipLaunchKernelGGL(reduce_rows_f32<true>, dim3(nrows), dim3(threads), 0, 0, dx, dd, ncols);
        } else {
          hipLaunchKernelGGL(reduce_rows_f32<false>, dim3(nrows), dim3(threads), 0, 0, dx, dd, ncols);
        }
        hipDeviceSynchronize();
        hipMemcpy(got.data(), dd, nrows * sizeof(float), hipMemcpyDeviceToHost);
        for (int r = 0; r < nrows; ++r) {
          double sum = 0.0;
          for (int c = 0; c < ncols; ++c) sum += x[static_cast<size_t>(r) * ncols + c];
          const double want = mean ? sum / ncols : sum;
          ++checked;
          if (std::fabs(got[r] - want) > 1e-5 * (1.0 + std::fabs(want))) {
            std::printf("reduce_rows_f32<%s> ncols=%d threads=%d row %d: %g, expected %g\n", mean ? "true" : "false",
                        ncols, threads, r, got[r], want);
            ++failed;
          }
        }
        hipFree(dx);
        hipFree(dd);
      }
    }
  }
  std::printf("ggml reduce_rows_f32 sum and mean (%d rows: 4 widths x 3 block sizes x 2): %s\n", checked,
              failed ? "FAIL" : "PASS");
  return failed ? 1 : 0;
}
