// A kernel beside a driver-table struct whose optional members hang on feature switches derived from version
// tests: the struct and the functions around it are the library's, whichever way the switches go.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "feature_switches.h"

#define CHECK(call)                                                                 \
  do {                                                                              \
    cudaError_t err_ = (call);                                                      \
    if (err_ != cudaSuccess) {                                                      \
      std::printf("derived_feature_switch: FAIL %s\n", cudaGetErrorString(err_)); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

#ifdef FEAT_HW_DECOMPRESS
// Only built with the switch: hands a batch to the driver's decompressor.
[[maybe_unused]] static CUresult decompress_batch(const DriverTable &table, CUmemDecompressParams *params,
                                                  size_t count) {
  size_t error_index = 0;
  return table.batch_decompress(params, count, 0, &error_index, nullptr);
}
#endif

// After the switch's region: must stay defined whichever way the switch goes.
static int generation_offset(const DriverTable &table) { return table.generation * 1000 + optional_entries(table); }

__global__ void scale(const int *in, int *out, int n, int factor, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factor + offset;
}

int main() {
  const int n = 4096;
  const int factor = 3;
  DriverTable table;  // no entry loaded: the optional ones count 0
  const int offset = generation_offset(table);
  std::vector<int> in(n), expected(n), out(n, 0);
  for (int i = 0; i < n; ++i) {
    in[i] = (i * 37) % 1021 - 500;
    expected[i] = in[i] * factor + offset;
  }
  long long checksum = 0;
  for (int i = 0; i < n; ++i) checksum += static_cast<long long>(expected[i]) * (i % 7 + 1);
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("derived_feature_switch: PASS checksum=%lld\n", checksum);
  return 0;
#else
  int *d_in = nullptr;
  int *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  scale<<<(n + 255) / 256, 256>>>(d_in, d_out, n, factor, offset);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  for (int i = 0; i < n; ++i) {
    if (out[i] != expected[i]) {
      std::printf("derived_feature_switch: FAIL at %d: %d != %d\n", i, out[i], expected[i]);
      return 1;
    }
  }
  std::printf("derived_feature_switch: PASS checksum=%lld\n", checksum);
  return 0;
#endif
}
