// surface_object: a cudaArray allocated with cudaArraySurfaceLoadStore, cudaCreateSurfaceObject,
// surf2Dread/surf2Dwrite (byte-addressed x), cudaMemcpy2DFromArray, cudaDestroySurfaceObject.
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

__global__ void blur_rows(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int l = x > 0 ? x - 1 : x, r = x < w - 1 ? x + 1 : x;
  int a, b, c;
  surf2Dread(&a, src, l * (int)sizeof(int), y);
  surf2Dread(&b, src, x * (int)sizeof(int), y);
  surf2Dread(&c, src, r * (int)sizeof(int), y);
  surf2Dwrite(a + 2 * b + c, dst, x * (int)sizeof(int), y);
}

int main() {
  const int w = 80, h = 30;
  std::vector<int> img(w * h), out(w * h);
  for (int i = 0; i < w * h; ++i) img[i] = (i * 7919) % 251;
  long long ref = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int l = x > 0 ? x - 1 : x, r = x < w - 1 ? x + 1 : x;
      ref += (long long)(img[y * w + l] + 2 * img[y * w + x] + img[y * w + r]) * (x + 1);
    }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("surface_object: PASS checksum=%lld\n", ref);
  return 0;
#endif
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
  cudaArray_t a_src, a_dst;
  CHECK(cudaMallocArray(&a_src, &desc, w, h, cudaArraySurfaceLoadStore));
  CHECK(cudaMallocArray(&a_dst, &desc, w, h, cudaArraySurfaceLoadStore));
  CHECK(cudaMemcpy2DToArray(a_src, 0, 0, img.data(), w * sizeof(int), w * sizeof(int), h, cudaMemcpyHostToDevice));
  cudaResourceDesc res;
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeArray;
  cudaSurfaceObject_t s_src = 0, s_dst = 0;
  res.res.array.array = a_src;
  CHECK(cudaCreateSurfaceObject(&s_src, &res));
  res.res.array.array = a_dst;
  CHECK(cudaCreateSurfaceObject(&s_dst, &res));
  blur_rows<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(s_src, s_dst, w, h);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy2DFromArray(out.data(), w * sizeof(int), a_dst, 0, 0, w * sizeof(int), h, cudaMemcpyDeviceToHost));
  long long sum = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) sum += (long long)out[y * w + x] * (x + 1);
  CHECK(cudaDestroySurfaceObject(s_src));
  CHECK(cudaDestroySurfaceObject(s_dst));
  CHECK(cudaFreeArray(a_src));
  CHECK(cudaFreeArray(a_dst));
  if (sum != ref) { std::printf("surface_object: FAIL %lld\n", sum); return 1; }
  std::printf("surface_object: PASS checksum=%lld\n", sum);
  return 0;
}
