// bf16_mlp_layer: one MLP layer of a training step in the style of modern ML CUDA code, checked against a CPU
// reference: bf16 weights and activations, a cuBLASLt matmul with the bias+GELU epilogue (fp32 compute),
// a residual add on __nv_bfloat162 with streaming loads (__ldcs), a per-token sum of squares with
// cg::reduce on warp tiles, NVTX 3 ranges (C API and nvtx3::scoped_range), cudaCheck/cublasCheck macros,
// and the version and architecture conditions such code carries (CUDART_VERSION, __CUDACC_VER_MAJOR__,
// __CUDA_ARCH__).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvtx3.hpp>

namespace cg = cooperative_groups;
typedef __nv_bfloat16 floatX;

#define cudaCheck(call) cuda_check((call), #call, __FILE__, __LINE__)
#define cublasCheck(call) cublas_check((call), #call, __FILE__, __LINE__)

static void cuda_check(cudaError_t status, const char* what, const char* file, int line) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, what, cudaGetErrorString(status));
    std::exit(1);
  }
}

static void cublas_check(cublasStatus_t status, const char* what, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", file, line, what, (int)status);
    std::exit(1);
  }
}

// Older toolkits lack the streaming load for bf16 pairs: code written for them carries its own.
#if (__CUDACC_VER_MAJOR__ < 12)
__device__ inline __nv_bfloat162 __ldcs(const __nv_bfloat162* address) {
  unsigned int bits = __ldcs(reinterpret_cast<const unsigned int*>(address));
  __nv_bfloat162 value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}
#endif

struct NvtxRange {
  explicit NvtxRange(const char* name) { nvtxRangePushA(name); }
  ~NvtxRange() { nvtxRangePop(); }
};

constexpr int kOut = 64;     // M: output features (rows of the column-major result)
constexpr int kIn = 128;     // K: input features
constexpr int kTokens = 32;  // N: tokens (columns)

// y = x + residual, two bf16 values per thread; native bf16 arithmetic where the GPU has it.
__global__ void residual_add(__nv_bfloat162* out, const __nv_bfloat162* x, const __nv_bfloat162* residual, int pairs) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pairs) return;
  const __nv_bfloat162 a = __ldcs(x + i);
  const __nv_bfloat162 b = __ldcs(residual + i);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  out[i] = __hadd2(a, b);
#else
  const float2 fa = __bfloat1622float2(a), fb = __bfloat1622float2(b);
  out[i] = __floats2bfloat162_rn(fa.x + fb.x, fa.y + fb.y);
#endif
}

// One 32-thread tile per token: the sum of squares of its kOut features.
__global__ void token_sum_squares(const floatX* y, float* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int token = blockIdx.x * (blockDim.x / 32) + (int)warp.meta_group_rank();
  if (token >= kTokens) return;
  float partial = 0.0f;
  for (int row = (int)warp.thread_rank(); row < kOut; row += 32) {
    const float v = __bfloat162float(y[token * kOut + row]);
    partial += v * v;
  }
  const float total = cg::reduce(warp, partial, cg::plus<float>());
  if (warp.thread_rank() == 0) out[token] = total;
}

// --- CPU reference --------------------------------------------------------------------------------------

static uint16_t bf16_bits(float value) {  // round to nearest even (no NaNs here)
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return (uint16_t)(bits >> 16);
}

static float bf16_value(uint16_t bits) {
  const uint32_t wide = (uint32_t)bits << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

static float gelu_tanh(float x) {
  const float c = 0.7978845608028654f;  // sqrt(2 / pi)
  return 0.5f * x * (1.0f + std::tanh(c * (x + 0.044715f * x * x * x)));
}

int main() {
  // Dyadic inputs: exact in bf16, and every product and sum of the matmul is exact in fp32.
  std::vector<float> weights(kOut * kIn), acts(kIn * kTokens), bias(kOut), residual(kOut * kTokens);
  for (int i = 0; i < kOut * kIn; ++i) weights[i] = (float)((i * 7) % 17 - 8) / 16.0f;
  for (int i = 0; i < kIn * kTokens; ++i) acts[i] = (float)((i * 5) % 13 - 6) / 8.0f;
  for (int i = 0; i < kOut; ++i) bias[i] = (float)(i % 9 - 4) / 8.0f;
  for (int i = 0; i < kOut * kTokens; ++i) residual[i] = (float)(i % 11 - 5) / 4.0f;
  std::vector<float> ref(kOut * kTokens);
  long long checksum = 0;
  for (int n = 0; n < kTokens; ++n) {
    for (int m = 0; m < kOut; ++m) {
      float acc = bias[m];
      for (int k = 0; k < kIn; ++k) acc += weights[k * kOut + m] * acts[n * kIn + k];
      ref[n * kOut + m] = gelu_tanh(acc);
      checksum += std::lround(ref[n * kOut + m] * 16.0f);
    }
  }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("bf16_mlp_layer: PASS checksum=%lld\n", checksum);
  return 0;
#endif
  nvtx3::scoped_range step{"mlp_layer_step"};
  std::vector<uint16_t> h_weights(weights.size()), h_acts(acts.size()), h_bias(bias.size()), h_res(residual.size());
  for (size_t i = 0; i < weights.size(); ++i) h_weights[i] = bf16_bits(weights[i]);
  for (size_t i = 0; i < acts.size(); ++i) h_acts[i] = bf16_bits(acts[i]);
  for (size_t i = 0; i < bias.size(); ++i) h_bias[i] = bf16_bits(bias[i]);
  for (size_t i = 0; i < residual.size(); ++i) h_res[i] = bf16_bits(residual[i]);

  cudaStream_t stream;
  cudaCheck(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  floatX *d_weights, *d_acts, *d_bias, *d_y, *d_res, *d_sum;
  float* d_squares;
  void* workspace;
  const size_t workspace_bytes = 4u << 20;
  const size_t y_bytes = sizeof(floatX) * kOut * kTokens;
#if CUDART_VERSION >= 11020
  cudaCheck(cudaMallocAsync((void**)&d_weights, sizeof(floatX) * kOut * kIn, stream));
  cudaCheck(cudaMallocAsync((void**)&d_acts, sizeof(floatX) * kIn * kTokens, stream));
#else
  cudaCheck(cudaMalloc((void**)&d_weights, sizeof(floatX) * kOut * kIn));
  cudaCheck(cudaMalloc((void**)&d_acts, sizeof(floatX) * kIn * kTokens));
#endif
  cudaCheck(cudaMalloc((void**)&d_bias, sizeof(floatX) * kOut));
  cudaCheck(cudaMalloc((void**)&d_y, y_bytes));
  cudaCheck(cudaMalloc((void**)&d_res, y_bytes));
  cudaCheck(cudaMalloc((void**)&d_sum, y_bytes));
  cudaCheck(cudaMalloc((void**)&d_squares, sizeof(float) * kTokens));
  cudaCheck(cudaMalloc(&workspace, workspace_bytes));
  cudaCheck(cudaMemcpyAsync(d_weights, h_weights.data(), h_weights.size() * 2, cudaMemcpyHostToDevice, stream));
  cudaCheck(cudaMemcpyAsync(d_acts, h_acts.data(), h_acts.size() * 2, cudaMemcpyHostToDevice, stream));
  cudaCheck(cudaMemcpyAsync(d_bias, h_bias.data(), h_bias.size() * 2, cudaMemcpyHostToDevice, stream));
  cudaCheck(cudaMemcpyAsync(d_res, h_res.data(), h_res.size() * 2, cudaMemcpyHostToDevice, stream));

  cublasLtHandle_t lt;
  cublasCheck(cublasLtCreate(&lt));
  {
    NvtxRange range("matmul_bias_gelu");
    cublasLtMatmulDesc_t op;
    cublasCheck(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    const cublasOperation_t no_transpose = CUBLAS_OP_N;
    cublasCheck(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &no_transpose, sizeof(no_transpose)));
    cublasCheck(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &no_transpose, sizeof(no_transpose)));
    const cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_GELU_BIAS;
    cublasCheck(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue)));
    cublasCheck(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &d_bias, sizeof(d_bias)));
#if CUDART_VERSION >= 12000
    const cudaDataType_t bias_type = CUDA_R_16BF;
    cublasCheck(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_type, sizeof(bias_type)));
#endif
    cublasLtMatrixLayout_t a_layout, b_layout, d_layout;
    cublasCheck(cublasLtMatrixLayoutCreate(&a_layout, CUDA_R_16BF, kOut, kIn, kOut));
    cublasCheck(cublasLtMatrixLayoutCreate(&b_layout, CUDA_R_16BF, kIn, kTokens, kIn));
    cublasCheck(cublasLtMatrixLayoutCreate(&d_layout, CUDA_R_16BF, kOut, kTokens, kOut));
    cublasLtMatmulPreference_t preference;
    cublasCheck(cublasLtMatmulPreferenceCreate(&preference));
    cublasCheck(cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                     &workspace_bytes, sizeof(workspace_bytes)));
    cublasLtMatmulHeuristicResult_t heuristic;
    int found = 0;
    cublasCheck(cublasLtMatmulAlgoGetHeuristic(lt, op, a_layout, b_layout, d_layout, d_layout, preference, 1,
                                               &heuristic, &found));
    if (found == 0) {
      std::printf("bf16_mlp_layer: FAIL no cuBLASLt algorithm for the bias+GELU epilogue\n");
      return 1;
    }
    const float alpha = 1.0f, beta = 0.0f;
    cublasCheck(cublasLtMatmul(lt, op, &alpha, d_weights, a_layout, d_acts, b_layout, &beta, d_y, d_layout, d_y,
                               d_layout, &heuristic.algo, workspace, workspace_bytes, stream));
    cublasCheck(cublasLtMatmulPreferenceDestroy(preference));
    cublasCheck(cublasLtMatrixLayoutDestroy(a_layout));
    cublasCheck(cublasLtMatrixLayoutDestroy(b_layout));
    cublasCheck(cublasLtMatrixLayoutDestroy(d_layout));
    cublasCheck(cublasLtMatmulDescDestroy(op));
  }
  {
    NvtxRange range("residual_and_norms");
    const int pairs = kOut * kTokens / 2;
    residual_add<<<(pairs + 127) / 128, 128, 0, stream>>>((__nv_bfloat162*)d_sum, (const __nv_bfloat162*)d_y,
                                                           (const __nv_bfloat162*)d_res, pairs);
    cudaCheck(cudaGetLastError());
    token_sum_squares<<<kTokens / 4, 128, 0, stream>>>(d_y, d_squares);
    cudaCheck(cudaGetLastError());
  }
  std::vector<uint16_t> y(kOut * kTokens), summed(kOut * kTokens);
  std::vector<float> squares(kTokens);
  cudaCheck(cudaMemcpyAsync(y.data(), d_y, y_bytes, cudaMemcpyDeviceToHost, stream));
  cudaCheck(cudaMemcpyAsync(summed.data(), d_sum, y_bytes, cudaMemcpyDeviceToHost, stream));
  cudaCheck(cudaMemcpyAsync(squares.data(), d_squares, sizeof(float) * kTokens, cudaMemcpyDeviceToHost, stream));
  cudaCheck(cudaStreamSynchronize(stream));

  int bad_y = -1, bad_sum = -1, bad_square = -1;
  for (int i = 0; i < kOut * kTokens && bad_y < 0; ++i) {
    const float got = bf16_value(y[i]);  // bf16 keeps 8 bits: a relative error of 2^-8, plus GELU's own
    if (std::fabs(got - ref[i]) > 1e-2f + std::fabs(ref[i]) / 128.0f) bad_y = i;
  }
  for (int i = 0; i < kOut * kTokens && bad_sum < 0; ++i) {  // one rounding of an exact sum: bit for bit
    if (summed[i] != bf16_bits(bf16_value(y[i]) + residual[i])) bad_sum = i;
  }
  for (int n = 0; n < kTokens && bad_square < 0; ++n) {
    double want = 0.0;
    for (int m = 0; m < kOut; ++m) want += (double)bf16_value(y[n * kOut + m]) * bf16_value(y[n * kOut + m]);
    if (std::fabs(squares[n] - want) > 1e-4 * (1.0 + want)) bad_square = n;
  }
  cublasCheck(cublasLtDestroy(lt));
#if CUDART_VERSION >= 11020
  cudaCheck(cudaFreeAsync(d_weights, stream));
  cudaCheck(cudaFreeAsync(d_acts, stream));
#else
  cudaCheck(cudaFree(d_weights));
  cudaCheck(cudaFree(d_acts));
#endif
  cudaCheck(cudaStreamSynchronize(stream));
  cudaCheck(cudaFree(d_bias));
  cudaCheck(cudaFree(d_y));
  cudaCheck(cudaFree(d_res));
  cudaCheck(cudaFree(d_sum));
  cudaCheck(cudaFree(d_squares));
  cudaCheck(cudaFree(workspace));
  cudaCheck(cudaStreamDestroy(stream));
  if (bad_y >= 0 || bad_sum >= 0 || bad_square >= 0) {
    std::printf("bf16_mlp_layer: FAIL matmul[%d] residual[%d] squares[%d]\n", bad_y, bad_sum, bad_square);
    return 1;
  }
  std::printf("bf16_mlp_layer: PASS checksum=%lld\n", checksum);
  return 0;
}
