// Row sums with rows staged in shared memory: Ampere and newer stage them with cp.async (inline PTX), older
// GPUs with plain loads. Both give the same sums.
#include "ops.cuh"

namespace {

constexpr int kThreads = 128;
constexpr int kMaxCols = 256;

__device__ __forceinline__ void stage_row(float* dst, const float* src, int cols) {
#if __CUDA_ARCH__ >= TB_CC_AMPERE
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const unsigned int smem = static_cast<unsigned int>(__cvta_generic_to_shared(dst + c));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(smem), "l"(src + c));
  }
  asm volatile("cp.async.wait_all;\n" ::);
#else
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    dst[c] = src[c];
  }
#endif
  __syncthreads();
}

__global__ void row_sums_kernel(const float* in, float* out, int rows, int cols, float scale) {
  __shared__ float tile[TB_ROWS_PER_BLOCK > 2 ? 4 : 2][kMaxCols];
  const int per_block = TB_ROWS_PER_BLOCK;
  for (int base = blockIdx.x * per_block; base < rows; base += gridDim.x * per_block) {
    for (int r = 0; r < per_block && base + r < rows; ++r) {
      stage_row(tile[r], in + static_cast<size_t>(base + r) * cols, cols);
    }
    if (threadIdx.x < per_block && base + threadIdx.x < rows) {
      float sum = 0.0f;
      for (int c = 0; c < cols; ++c) {
        sum += tile[threadIdx.x][c];
      }
      out[base + threadIdx.x] = sum * scale;
    }
    __syncthreads();
  }
}

}  // namespace

void tb_row_sums(tb_context& ctx, const float* in, float* out, int rows, int cols, float scale) {
  if (cols > kMaxCols) {
    std::fprintf(stderr, "tb_row_sums: at most %d columns\n", kMaxCols);
    std::exit(1);
  }
  row_sums_kernel<<<8, kThreads, 0, ctx.stream>>>(in, out, rows, cols, scale);
  TB_CHECK(cudaGetLastError());
}
