#include <cuda_runtime.h>
#include <cublas_v2.h>

void gemm(int n, const float* A, const float* B, float* C) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  const float one = 1.f, zero = 0.f;
  if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n) !=
      CUBLAS_STATUS_SUCCESS) {
    return;
  }
  cublasDestroy(handle);
}
