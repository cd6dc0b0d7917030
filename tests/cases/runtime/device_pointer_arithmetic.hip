// CUdeviceptr is an integer in CUDA and void* in HIP: arithmetic on it is kept in bytes.
#include <hip/hip_runtime.h>

struct Slice { hipDeviceptr_t base; size_t bytes; };

static hipError_t copy_rows(hipDeviceptr_t dst, hipDeviceptr_t src, size_t row, int rows, const Slice* parts) {
  for (int i = 0; i < rows; ++i) {
    hipError_t r = hipMemcpyDtoD(dst + i * row, (char*)src + i * row, row);
    if (r != hipSuccess) return r;
  }
  hipDeviceptr_t end = (char*)parts[0].base + parts[0].bytes, cursor = dst;
  (char*&)cursor += row;
  size_t span = (unsigned long long)end - (unsigned long long)parts[0].base;
  bool aligned = (dst % 256) == 0 && ((unsigned long long)src & 255) == 0 && dst != 0;
  return aligned && span ? hipMemsetD8(cursor, 0, 1) : hipSuccess;
}

// The same name declared with another type: which one a use means is not for the text to say.
static int scale(int dst) { return dst + 1; }
