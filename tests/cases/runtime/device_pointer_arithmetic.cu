// CUdeviceptr is an integer in CUDA and void* in HIP: arithmetic on it is kept in bytes.
#include <cuda.h>

struct Slice { CUdeviceptr base; size_t bytes; };

static CUresult copy_rows(CUdeviceptr dst, CUdeviceptr src, size_t row, int rows, const Slice* parts) {
  for (int i = 0; i < rows; ++i) {
    CUresult r = cuMemcpyDtoD(dst + i * row, src + i * row, row);
    if (r != CUDA_SUCCESS) return r;
  }
  CUdeviceptr end = parts[0].base + parts[0].bytes, cursor = dst;
  cursor += row;
  size_t span = end - parts[0].base;
  bool aligned = (dst % 256) == 0 && (src & 255) == 0 && dst != 0;
  return aligned && span ? cuMemsetD8(cursor, 0, 1) : CUDA_SUCCESS;
}

// The same name declared with another type: which one a use means is not for the text to say.
static int scale(int dst) { return dst + 1; }
