// hipify-py-flags: --roc
// Every cuBLAS name here has a rocBLAS equivalent that takes what the call passes: the whole
// file takes rocBLAS's names, and the definition rocBLAS needs for hipComplex arguments.
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cuComplex.h>

cublasStatus_t scale_and_multiply(cublasHandle_t handle, cudaStream_t stream, int n, const cuComplex* alpha,
                                  const cuComplex* A, const cuComplex* B, const cuComplex* beta, cuComplex* C) {
  cublasStatus_t status = cublasSetStream(handle, stream);
  if (status != CUBLAS_STATUS_SUCCESS) return status;
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
  return cublasCgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, alpha, A, n, B, n, beta, C, n);
}
