// glob_instances_cmake: template instances in files of their own, globbed by the build into one variable in
// turn (every one must be compiled, or the program does not link); a masked softmax under nvcc's fast math,
// whose -INFINITY scores must stay infinite. Checked against the CPU library's reference.
#include <cmath>
#include <cstdio>
#include <vector>

#include "kernels.cuh"

#define GI_CHECK(call)                                                                   \
  do {                                                                                   \
    cudaError_t err_ = (call);                                                           \
    if (err_ != cudaSuccess) {                                                           \
      std::printf("glob_instances_cmake: FAIL %s: %s\n", #call, cudaGetErrorString(err_)); \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)

int main() {
  const int n = GI_ROWS * GI_COLS;
  std::vector<float> in(n);
  std::vector<int> mask(n);
  int masked = 0;
  for (int r = 0; r < GI_ROWS; ++r)
    for (int c = 0; c < GI_COLS; ++c) {
      in[r * GI_COLS + c] = gi_input(r, c);
      mask[r * GI_COLS + c] = gi_masked(r, c);
      masked += gi_masked(r, c);
    }
  std::vector<double> soft_ref(n);
  for (int r = 0; r < GI_ROWS; ++r) gi_softmax_reference(r, &soft_ref[r * GI_COLS]);
  // The checksum: the exact scaled values, the masked count, the softmax in units of 2^-10 (its error is far less).
  unsigned long long ref_sum = 0;
  for (float v : in) ref_sum = gi_mix(gi_mix(ref_sum, static_cast<long long>(v * 8)), static_cast<long long>(v * 16));
  ref_sum = gi_mix(ref_sum, masked);
  for (double v : soft_ref) ref_sum = gi_mix(ref_sum, std::llround(v * 1024));
#ifdef CORPUS_REFERENCE_ONLY
  return gi_report("glob_instances_cmake", 1, ref_sum, "");
#endif

  float *d_in, *d_two, *d_four, *d_soft;
  int *d_mask, *d_infinite;
  GI_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  GI_CHECK(cudaMalloc(&d_two, n * sizeof(float)));
  GI_CHECK(cudaMalloc(&d_four, n * sizeof(float)));
  GI_CHECK(cudaMalloc(&d_soft, n * sizeof(float)));
  GI_CHECK(cudaMalloc(&d_mask, n * sizeof(int)));
  GI_CHECK(cudaMalloc(&d_infinite, sizeof(int)));
  GI_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  GI_CHECK(cudaMemcpy(d_mask, mask.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  GI_CHECK(cudaMemset(d_infinite, 0, sizeof(int)));
  launch_scale<2>(d_in, d_two, n, 0);
  launch_scale<4>(d_in, d_four, n, 0);
  launch_softmax<float>(d_in, d_mask, d_soft, d_infinite, GI_ROWS, GI_COLS, 0);
  GI_CHECK(cudaGetLastError());
  std::vector<float> two(n), four(n), soft(n);
  int infinite = 0;
  GI_CHECK(cudaMemcpy(two.data(), d_two, n * sizeof(float), cudaMemcpyDeviceToHost));
  GI_CHECK(cudaMemcpy(four.data(), d_four, n * sizeof(float), cudaMemcpyDeviceToHost));
  GI_CHECK(cudaMemcpy(soft.data(), d_soft, n * sizeof(float), cudaMemcpyDeviceToHost));
  GI_CHECK(cudaMemcpy(&infinite, d_infinite, sizeof(int), cudaMemcpyDeviceToHost));
  for (void* p : {static_cast<void*>(d_in), static_cast<void*>(d_two), static_cast<void*>(d_four),
                  static_cast<void*>(d_soft), static_cast<void*>(d_mask), static_cast<void*>(d_infinite)})
    GI_CHECK(cudaFree(p));

  bool scaled = true, softmax = true;
  unsigned long long sum = 0;
  for (int i = 0; i < n; ++i) {
    scaled = scaled && two[i] == in[i] * 2 && four[i] == in[i] * 4;
    sum = gi_mix(gi_mix(sum, static_cast<long long>(two[i] * 4)), static_cast<long long>(four[i] * 4));
  }
  sum = gi_mix(sum, infinite);
  for (int i = 0; i < n; ++i) {
    // masked scores give exactly 0; the others agree with the double-precision reference within fast math's error
    softmax = softmax && (mask[i] ? soft[i] == 0.0f : std::fabs(soft[i] - soft_ref[i]) < 1e-4);
    sum = gi_mix(sum, std::llround(static_cast<double>(soft[i]) * 1024));
  }
  char detail[96];
  std::snprintf(detail, sizeof detail, "scaled %d, softmax %d, infinite scores %d of %d", scaled, softmax, infinite,
                masked);
  return gi_report("glob_instances_cmake", scaled && softmax && infinite == masked, sum, detail);
}
