// Project facts under the translated build: names defined only for the project's other builds, struct members named
// like CUDA functions, and left-out code that stays inside its function.
#include "common.cuh"

__global__ void stats_kernel(const int* values, int n, Quantizer q, TileStats* out, float* inf, int use_scales,
                             const unsigned char* scales, float* decoded) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    TileStats s{0, 0};
    for (int i = 0; i < n; ++i) add_tile(s, values[i] * device_code_size(q));
    *out = s;
    *inf = checked_inf(1);
    if (use_scales) decode_scales<1>(scales, decoded, n);  // never asked for by this program
  }
}

int main() {
  const int n = 8;
  int host_values[n];
  for (int i = 0; i < n; ++i) host_values[i] = i + 1;
  Quantizer q{16, 4, 4};
  const int expected_total = (n * (n + 1) / 2) * (q.M * q.dsub);
  const int expected_size = host_code_size(q, &q);
  const int expected_scaled = host_scaled(q.dsub);
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("own_names: PASS checksum=%d\n", expected_total + expected_size + expected_scaled);
  return 0;
#else
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  int* values = nullptr;
  TileStats* stats = nullptr;
  float* inf = nullptr;
  CHECK(cudaMalloc(&values, n * sizeof(int)));
  CHECK(cudaMalloc(&stats, sizeof(TileStats)));
  CHECK(cudaMalloc(&inf, sizeof(float)));
  CHECK(cudaMemcpyAsync(values, host_values, n * sizeof(int), cudaMemcpyHostToDevice, stream));
  stats_kernel<<<1, 32, 0, stream>>>(values, n, q, stats, inf, 0, nullptr, nullptr);
  CHECK(cudaGetLastError());
  TileStats got{};
  float got_inf = 0.0f;
  CHECK(cudaMemcpyAsync(&got, stats, sizeof(TileStats), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(&got_inf, inf, sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaFree(values));
  CHECK(cudaFree(stats));
  CHECK(cudaFree(inf));
  CHECK(cudaStreamDestroy(stream));
  if (got.count != n || got.total != expected_total || !(got_inf > 3.0e38f)) {
    std::printf("own_names: FAIL count=%d total=%d (expected %d) inf=%g\n", got.count, got.total, expected_total,
                got_inf);
    return 1;
  }
  std::printf("own_names: PASS checksum=%d\n", got.total + expected_size + expected_scaled);
  return 0;
#endif
}
