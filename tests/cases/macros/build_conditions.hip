// Version and architecture conditions, decided as a current CUDA build for a current GPU decides them.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <cstdio>

#if 0
__device__ float old_nvcc_fallback() { return 1; }
#endif
#if 0
#error needs CUDA 11
#elif 1
static const int modern = 1;
#endif
#if 0
__device__ float old_bf16_fallback() { return 2; }
#endif

// The CUDA programming guide's polyfill: only the host pass of a current build sees it.
#if !defined(__HIP_DEVICE_COMPILE__)
__device__ double atomicAdd(double* address, double val);
#endif

__global__ void kernel(float* x, __half* h) {
#if defined(__HIP_DEVICE_COMPILE__)
  h[0] = __hadd(h[1], h[2]);
#else
  x[0] = 1;
#endif
#if defined(__HIP_DEVICE_COMPILE__) && USE_FAST_PATH
  x[1] = 3;
#endif
#ifdef __HIP_DEVICE_COMPILE__
  printf("built for %d\n", 750);
#endif
}

// Branches the newest build would compile but HIP cannot: decided as an older build decides them (sm_75, CUDA 12.9).
__device__ void wait_all() {
#if 0
  asm volatile("cp.async.wait_all;\n" ::);
#endif
}
#if !defined(__HIP_DEVICE_COMPILE__)
#define ASYNC_COPY_ENABLED
#endif
__device__ void commit() {
#ifdef ASYNC_COPY_ENABLED
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
#if 0
__device__ unsigned load(unsigned* p) { return __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED); }
#else
__device__ unsigned load(unsigned* p) { return *p; }
#endif
