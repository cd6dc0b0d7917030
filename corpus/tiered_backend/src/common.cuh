// The one header every file of this backend includes, in the shape of modern inference libraries: the
// backend's context struct (which every op takes by reference), error-check macros, architecture tiers
// decided once here and tested by the op files, a NO_DEVICE_CODE marker for tiers a kernel was not built
// for, cuBLAS version checks and version-dependent half2 helpers.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#if defined(TB_USE_HIP)
// The project's own HIP build: names spelled the CUDA way map onto HIP here. Inactive in a CUDA build (and in a
// translation of it), so the CUDA spellings below stay the project's uses of CUDA.
#define HIP_ENABLE_WARP_SYNC_BUILTINS
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hipblas/hipblas.h>
#define cudaStream_t hipStream_t
#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaGetErrorString hipGetErrorString
#define cublasHandle_t hipblasHandle_t
#else
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#endif

// Compute capabilities the tiers below are named after.
#define TB_CC_PASCAL 600
#define TB_CC_VOLTA 700
#define TB_CC_TURING 750
#define TB_CC_AMPERE 800

#define TB_CHECK(call)                                                                          \
  do {                                                                                          \
    cudaError_t tb_err_ = (call);                                                               \
    if (tb_err_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: CUDA error: %s\n", __FILE__, __LINE__, cudaGetErrorString(tb_err_)); \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

#define TB_BLAS_CHECK(call)                                                                     \
  do {                                                                                          \
    cublasStatus_t tb_st_ = (call);                                                             \
    if (tb_st_ != CUBLAS_STATUS_SUCCESS) {                                                      \
      std::fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__, (int)tb_st_);       \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

// Architecture tiers, decided once for every op file. Each tier has a portable path beside it.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= TB_CC_AMPERE
#define TB_CP_ASYNC_AVAILABLE  // cp.async: global -> shared copies that bypass the registers
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= TB_CC_TURING
#define TB_MMA_AVAILABLE  // mma.sync tensor-core fragments
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= TB_CC_PASCAL
#define TB_FP16_AVAILABLE  // half arithmetic (and the host pass, which only needs the declarations)
#endif

// Reached only in a tier that the running GPU's build leaves out: says which build it was.
__device__ inline void tb_no_device_code(const char* file, int line, int arch) {
  printf("%s:%d: no device code for compute capability %d\n", file, line, arch);
  __trap();
}

#ifdef __CUDA_ARCH__
#define NO_DEVICE_CODE tb_no_device_code(__FILE__, __LINE__, __CUDA_ARCH__)
#else
#define NO_DEVICE_CODE static_assert(true, "host pass: device-only tier")
#endif

// Rows staged per block: newer GPUs keep more in shared memory (the result does not depend on it).
#ifdef __CUDA_ARCH__
#define TB_ROWS_PER_BLOCK (__CUDA_ARCH__ >= TB_CC_AMPERE ? 4 : 2)
#else
#define TB_ROWS_PER_BLOCK 2
#endif

// Lane-wise max and min of half pairs: CUDA 11.7 added the intrinsics, older toolkits compare each half.
static __device__ __forceinline__ half2 tb_hmax2(const half2 a, const half2 b) {
#if CUDART_VERSION >= 11070
  return __hmax2(a, b);
#else
  return __halves2half2(__hgt(__low2half(a), __low2half(b)) ? __low2half(a) : __low2half(b),
                        __hgt(__high2half(a), __high2half(b)) ? __high2half(a) : __high2half(b));
#endif
}

static __device__ __forceinline__ half2 tb_hmin2(const half2 a, const half2 b) {
#if CUDART_VERSION >= 11070
  return __hmin2(a, b);
#else
  return __halves2half2(__hlt(__low2half(a), __low2half(b)) ? __low2half(a) : __low2half(b),
                        __hlt(__high2half(a), __high2half(b)) ? __high2half(a) : __high2half(b));
#endif
}

// The backend's context: every op takes it by reference. One member needs cuBLAS's workspace setter and
// another the L2 persistence reset; the others are what every op uses.
struct tb_context {
  int device = 0;
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  void* workspace = nullptr;
  size_t workspace_size = 0;

  void init(size_t workspace_bytes) {
    TB_CHECK(cudaSetDevice(device));
    TB_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    TB_BLAS_CHECK(cublasCreate(&blas));
    TB_BLAS_CHECK(cublasSetStream(blas, stream));
    workspace_size = workspace_bytes;
    TB_CHECK(cudaMalloc(&workspace, workspace_size));
  }

  // A fixed workspace makes cuBLAS's results reproducible across streams (cuBLAS 11 and newer).
  void pin_blas_workspace() {
#if CUBLAS_VER_MAJOR > 11 || (CUBLAS_VER_MAJOR == 11 && CUBLAS_VER_MINOR >= 0)
    TB_BLAS_CHECK(cublasSetWorkspace(blas, workspace, workspace_size));
#endif
  }

  // Between unrelated models: drop what earlier kernels left persisting in L2.
  void reset_l2() { TB_CHECK(cudaCtxResetPersistingL2Cache()); }

  void synchronize() const { TB_CHECK(cudaStreamSynchronize(stream)); }

  void destroy() {
    TB_CHECK(cudaFree(workspace));
    TB_BLAS_CHECK(cublasDestroy(blas));
    TB_CHECK(cudaStreamDestroy(stream));
  }
};

// How many GPUs' worth of cuBLAS this build was made with, for the log.
static inline int tb_blas_version() {
#if defined(CUBLAS_VERSION)
  return CUBLAS_VERSION;
#else
  return 0;
#endif
}
