// CUarray is hipArray_t in ROCm 6.4 (and CUarray_st its struct hipArray); __func__ is standard
// C++, neither a CUDA name nor reported.
#include <cuda.h>
#include <cstdio>

CUresult make_array(CUarray* array, size_t width, size_t height) {
  CUDA_ARRAY_DESCRIPTOR desc;
  desc.Format = CU_AD_FORMAT_FLOAT;
  desc.NumChannels = 1;
  desc.Width = width;
  desc.Height = height;
  CUresult r = cuArrayCreate(array, &desc);
  if (r != CUDA_SUCCESS) printf("%s failed\n", __func__);
  return r;
}

size_t bytes_of(struct CUarray_st* array);
