// hipify-py-flags: --roc

#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>

void make(hipblasHandle_t* h) {
  hipblasCreate(h);
  int op = HIPBLAS_OP_N;
  (void)op;
  hipblasDestroy(*h);
}
