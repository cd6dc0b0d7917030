// hipify-py-flags: --roc
// rocBLAS has no cublasCreate (its handle is made by rocblas_create_handle, which hipBLAS
// wraps), so the cuBLAS names of this file all become hipBLAS's (HPY114): rocblas_handle
// beside hipblasCreate would not compile. cuRAND has rocRAND names for everything here.
#include <cublas_v2.h>
#include <curand.h>

void fill_and_scale(float* x, int n) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  curandGenerator_t gen;
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
  curandGenerateUniform(gen, x, n);
  const float two = 2.f;
  cublasSscal(handle, n, &two, x, 1);
  curandDestroyGenerator(gen);
  cublasDestroy(handle);
}
