#include <cstdio>
#include <hip/hip_runtime.h>

#ifdef HIP_INCLUDE_HIP_HIP_RUNTIME_H
inline void check(hipError_t e) {
  if (e != hipSuccess) std::printf("%s\n", hipGetErrorString(e));
}
#endif

#if 1
#define HAS_NEW_API 1
#endif
