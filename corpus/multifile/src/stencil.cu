#include "stencil.cuh"

#include "common/cuda_check.h"

namespace stencil {
namespace {

constexpr int kBlock = 128;

__global__ void smooth_kernel(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[kBlock + 2 * kRadius];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + kRadius;
  tile[l] = in[clamp_index(g, n)];
  if (threadIdx.x < kRadius) {
    tile[l - kRadius] = in[clamp_index(g - kRadius, n)];
    tile[l + kBlock] = in[clamp_index(g + kBlock, n)];
  }
  __syncthreads();
  if (g < n) {
    float acc = 0.0f;
#pragma unroll
    for (int o = -kRadius; o <= kRadius; ++o) acc += weight(o) * tile[l + o];
    out[g] = acc;
  }
}

}  // namespace

void smooth(const float* in, float* out, int n, cudaStream_t stream) {
  smooth_kernel<<<(n + kBlock - 1) / kBlock, kBlock, 0, stream>>>(in, out, n);
  CHECK_LAUNCH();
}

float* smooth_steps_graph(float* a, float* b, int n, int steps, cudaStream_t stream) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  for (int s = 0; s < steps; ++s) {
    smooth(a, b, n, stream);
    float* t = a;
    a = b;
    b = t;
  }
  CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  CHECK_CUDA(COMMON_GRAPH_INSTANTIATE(&exec, graph));
  CHECK_CUDA(cudaGraphLaunch(exec, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaGraphExecDestroy(exec));
  CHECK_CUDA(cudaGraphDestroy(graph));
  return a;
}

}  // namespace stencil
