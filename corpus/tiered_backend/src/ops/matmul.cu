// C = A * B through cuBLAS on the context's handle and stream.
#include "ops.cuh"

void tb_matmul(tb_context& ctx, const float* a, const float* b, float* c, int m, int n, int k) {
  const float one = 1.0f, zero = 0.0f;
#if CUBLAS_VER_MAJOR >= 11
  TB_BLAS_CHECK(cublasSetMathMode(ctx.blas, CUBLAS_DEFAULT_MATH));
#endif
  TB_BLAS_CHECK(cublasSgemm(ctx.blas, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero, c, m));
}
