#include <cuda_runtime.h>

__global__ void blur_row(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x >= width) return;
  float left = surf2Dread<float>(in, (x - 1) * (int)sizeof(float), y, cudaBoundaryModeZero);
  float self = 0.0f;
  surf2Dread(&self, in, x * (int)sizeof(float), y);
  surf2Dwrite(0.5f * self + 0.5f * left, out, x * (int)sizeof(float), y, cudaBoundaryModeTrap);
}
