// Version and architecture conditions, decided as a current CUDA build for a current GPU decides them.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>

#if __CUDACC_VER_MAJOR__ < 12
__device__ float old_nvcc_fallback() { return 1; }
#endif
#if CUDART_VERSION < 11000
#error needs CUDA 11
#elif CUDART_VERSION >= 12000
static const int modern = 1;
#endif
#if defined(ENABLE_BF16) && (__CUDACC_VER_MAJOR__ < 12) && !((__CUDA_ARCH__ >= 800) || !defined(__CUDA_ARCH__))
__device__ float old_bf16_fallback() { return 2; }
#endif

// The CUDA programming guide's polyfill: only the host pass of a current build sees it.
#if __CUDA_ARCH__ < 600
__device__ double atomicAdd(double* address, double val);
#endif

__global__ void kernel(float* x, __half* h) {
#if __CUDA_ARCH__ >= 600
  h[0] = __hadd(h[1], h[2]);
#else
  x[0] = 1;
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700 && USE_FAST_PATH
  x[1] = 3;
#endif
#ifdef __CUDA_ARCH__
  printf("built for %d\n", __CUDA_ARCH__);
#endif
}

// Branches the newest build would compile but HIP cannot: decided as an older build decides them (sm_75, CUDA 12.9).
__device__ void wait_all() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::);
#endif
}
#if (!defined(__CUDA_ARCH__) || (__CUDA_ARCH__ >= 800))
#define ASYNC_COPY_ENABLED
#endif
__device__ void commit() {
#ifdef ASYNC_COPY_ENABLED
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
#if CUDA_VERSION >= 12080
__device__ unsigned load(unsigned* p) { return __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED); }
#else
__device__ unsigned load(unsigned* p) { return *p; }
#endif
