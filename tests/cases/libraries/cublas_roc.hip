// hipify-py-flags: --roc

#include <hip/hip_runtime.h>
#include <rocblas/rocblas.h>

void make(rocblas_handle* h) {
  hipblasCreate(h);
  int op = rocblas_operation_none;
  (void)op;
  hipblasDestroy(*h);
}
