// ROCm 7 dropped hipBLAS's v1 API: hipblasCgemmBatched takes hipComplex (from cuComplex) under its plain
// name, and hipblasGemmEx takes hipDataType; there are no _v2 functions (6.x: cublas_complex_batched).

#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <hip/hip_complex.h>

hipblasStatus_t batched(hipblasHandle_t h, int n, const hipComplex* alpha, const hipComplex* const* A,
                       const hipComplex* const* B, const hipComplex* beta, hipComplex* const* C, int count) {
  return hipblasCgemmBatched(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, alpha, A, n, B, n, beta, C, n, count);
}

hipblasStatus_t mixed(hipblasHandle_t h, int n, const float* alpha, const void* A, const void* B, const float* beta,
                     void* C) {
  return hipblasGemmEx(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, alpha, A, HIP_R_16F, n, B, HIP_R_16F, n, beta, C,
                      HIP_R_32F, n, HIPBLAS_COMPUTE_32F, HIPBLAS_GEMM_DEFAULT);
}
