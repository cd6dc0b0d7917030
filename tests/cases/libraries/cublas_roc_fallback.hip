// hipify-py-flags: --roc
// rocBLAS has no cublasCreate (its handle is made by rocblas_create_handle, which hipBLAS
// wraps), so the cuBLAS names of this file all become hipBLAS's (HPY114): rocblas_handle
// beside hipblasCreate would not compile. cuRAND has rocRAND names for everything here.

#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <rocrand/rocrand.h>

void fill_and_scale(float* x, int n) {
  hipblasHandle_t handle;
  hipblasCreate(&handle);
  rocrand_generator gen;
  rocrand_create_generator(&gen, ROCRAND_RNG_PSEUDO_DEFAULT);
  rocrand_generate_uniform(gen, x, n);
  const float two = 2.f;
  hipblasSscal(handle, n, &two, x, 1);
  rocrand_destroy_generator(gen);
  hipblasDestroy(handle);
}
