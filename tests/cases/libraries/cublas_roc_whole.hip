// hipify-py-flags: --roc
// Every cuBLAS name here has a rocBLAS equivalent that takes what the call passes: the whole
// file takes rocBLAS's names, and the definition rocBLAS needs for hipComplex arguments.
#define ROCM_MATHLIBS_API_USE_HIP_COMPLEX
#include <hip/hip_runtime.h>
#include <rocblas/rocblas.h>
#include <hip/hip_complex.h>

rocblas_status scale_and_multiply(rocblas_handle handle, hipStream_t stream, int n, const hipComplex* alpha,
                                  const hipComplex* A, const hipComplex* B, const hipComplex* beta, hipComplex* C) {
  rocblas_status status = rocblas_set_stream(handle, stream);
  if (status != rocblas_status_success) return status;
  rocblas_set_pointer_mode(handle, rocblas_pointer_mode_host);
  return rocblas_cgemm(handle, rocblas_operation_none, rocblas_operation_transpose, n, n, n, alpha, A, n, B, n, beta, C, n);
}
