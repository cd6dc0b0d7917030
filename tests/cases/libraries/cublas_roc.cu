// hipify-py-flags: --roc
#include <cublas_v2.h>

void make(cublasHandle_t* h) {
  cublasCreate(h);
  int op = CUBLAS_OP_N;
  (void)op;
  cublasDestroy(*h);
}
