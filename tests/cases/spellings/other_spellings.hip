#include <hip/hip_runtime.h>
#include "hipify_compat.h"
#include <hip/hip_bf16.h>
#include <hipblas/hipblas.h>

__global__ void convert(const float* in, __hip_bfloat162* out, unsigned int* counters) {
  __hip_bfloat16 lo = __float2bfloat16_rn(in[0]);
  __hip_bfloat16 zero = HIPRT_ZERO_BF16;
  out[threadIdx.x] = __halves2bfloat162(lo, __hadd(zero, lo));
  atomicInc_system(&counters[0], 15u);
  atomicDec_system(&counters[1], 15u);
}

int setup(hipDataType type) {
  hipSetDeviceFlags(hipDeviceScheduleBlockingSync);
  int overlap = 0;
  hipDeviceGetAttribute(&overlap, hipDeviceAttributeAsyncEngineCount, 0);
  hipLaunchAttributeValue value = {};
  value.accessPolicyWindow.num_bytes = 0;
  int attribute = hipLaunchAttributeAccessPolicyWindow;
  return overlap + attribute + (type == HIP_R_16BF) + (int)value.accessPolicyWindow.num_bytes;
}
