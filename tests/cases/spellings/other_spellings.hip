#include <hip/hip_runtime.h>
#include "hipify_compat.h"
#include <hip/hip_bf16.h>
#include <hipblas/hipblas.h>

__global__ void convert(const float* in, __hip_bfloat162* out, unsigned int* counters) {
  __hip_bfloat16 lo = __float2bfloat16_rn(in[0]);
  __hip_bfloat16 zero = HIPRT_ZERO_BF16;
  __hip_bfloat16 same = lo;  // the alias is the same type: one __hadd takes both
  out[threadIdx.x] = __halves2bfloat162(lo, __hadd(zero, same));
  atomicInc_system(&counters[0], 15u);
  atomicDec_system(&counters[1], 15u);
}

int setup(hipDataType type) {
  hipSetDeviceFlags(hipDeviceScheduleBlockingSync);
  int overlap = 0;
  hipDeviceGetAttribute(&overlap, hipDeviceAttributeAsyncEngineCount, 0);
  hipStreamAttrValue value = {};
  value.accessPolicyWindow.num_bytes = 0;
  int attribute = hipStreamAttributeAccessPolicyWindow;
  return overlap + attribute + (type == HIP_R_16BF) + (int)value.accessPolicyWindow.num_bytes;
}

int gemm_by_another_algorithm(hipblasHandle_t handle, const hipComplex* a, hipComplex* c) {
  const hipComplex one = make_hipComplex(1.f, 0.f);
  hipblasStatus_t status = hipblasCgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_N, 2, 2, 2, &one, a, 2, a, 2, &one, c, 2);
  return (int)status + (HIPBLAS_GEMM_DEFAULT == HIPBLAS_GEMM_DEFAULT);
}
