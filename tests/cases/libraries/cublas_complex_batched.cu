// hipify-py-flags: --rocm 6.4
// hipblasCgemmBatched takes hipblasComplex in ROCm 6; the translated call passes hipComplex
// (from cuComplex), which hipblasCgemmBatched_v2 takes. The same holds for cublasGemmEx with
// hipDataType: hipblasGemmEx_v2, with no HIPBLAS_V2 definition needed.
#include <cublas_v2.h>
#include <cuComplex.h>

cublasStatus_t batched(cublasHandle_t h, int n, const cuComplex* alpha, const cuComplex* const* A,
                       const cuComplex* const* B, const cuComplex* beta, cuComplex* const* C, int count) {
  return cublasCgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, A, n, B, n, beta, C, n, count);
}

cublasStatus_t mixed(cublasHandle_t h, int n, const float* alpha, const void* A, const void* B, const float* beta,
                     void* C) {
  return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, A, CUDA_R_16F, n, B, CUDA_R_16F, n, beta, C,
                      CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}
