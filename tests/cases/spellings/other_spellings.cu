#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cublas_v2.h>

__global__ void convert(const float* in, nv_bfloat162* out, unsigned int* counters) {
  __nv_bfloat16 lo = __float2bfloat16_rn(in[0]);
  __nv_bfloat16 zero = CUDART_ZERO_BF16;
  nv_bfloat16 same = lo;  // the alias is the same type: one __hadd takes both
  out[threadIdx.x] = __halves2bfloat162(lo, __hadd(zero, same));
  atomicInc_system(&counters[0], 15u);
  atomicDec_system(&counters[1], 15u);
}

int setup(cublasDataType_t type) {
  cudaSetDeviceFlags(cudaDeviceBlockingSync);
  int overlap = 0;
  cudaDeviceGetAttribute(&overlap, cudaDevAttrGpuOverlap, 0);
  cudaStreamAttrValue value = {};
  value.accessPolicyWindow.num_bytes = 0;
  int attribute = cudaStreamAttributeAccessPolicyWindow;
  return overlap + attribute + (type == CUDA_R_16BF) + (int)value.accessPolicyWindow.num_bytes;
}

int gemm_by_another_algorithm(cublasHandle_t handle, const cuComplex* a, cuComplex* c) {
  const cuComplex one = make_cuComplex(1.f, 0.f);
  cublasStatus_t status = cublasCgemm3m(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, a, 2, a, 2, &one, c, 2);
  return (int)status + (CUBLAS_GEMM_AUTOTUNE == CUBLAS_GEMM_DEFAULT);
}
