// CUarray is hipArray_t in ROCm 6.4 (and CUarray_st its struct hipArray); __func__ is standard
// C++, neither a CUDA name nor reported.
#include <hip/hip_runtime.h>
#include <cstdio>

hipError_t make_array(hipArray_t* array, size_t width, size_t height) {
  HIP_ARRAY_DESCRIPTOR desc;
  desc.Format = HIP_AD_FORMAT_FLOAT;
  desc.NumChannels = 1;
  desc.Width = width;
  desc.Height = height;
  hipError_t r = hipArrayCreate(array, &desc);
  if (r != hipSuccess) printf("%s failed\n", __func__);
  return r;
}

size_t bytes_of(struct hipArray* array);
