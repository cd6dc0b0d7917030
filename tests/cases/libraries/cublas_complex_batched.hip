// hipify-py-flags: --rocm 6.4
// hipblasCgemmBatched takes hipblasComplex in ROCm 6; the translated call passes hipComplex
// (from cuComplex), which hipblasCgemmBatched_v2 takes. The same holds for cublasGemmEx with
// hipDataType: hipblasGemmEx_v2, with no HIPBLAS_V2 definition needed.

#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <hip/hip_complex.h>

hipblasStatus_t batched(hipblasHandle_t h, int n, const hipComplex* alpha, const hipComplex* const* A,
                       const hipComplex* const* B, const hipComplex* beta, hipComplex* const* C, int count) {
  return hipblasCgemmBatched_v2(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, alpha, A, n, B, n, beta, C, n, count);
}

hipblasStatus_t mixed(hipblasHandle_t h, int n, const float* alpha, const void* A, const void* B, const float* beta,
                     void* C) {
  return hipblasGemmEx_v2(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, alpha, A, HIP_R_16F, n, B, HIP_R_16F, n, beta, C,
                      HIP_R_32F, n, HIPBLAS_COMPUTE_32F, HIPBLAS_GEMM_DEFAULT);
}
