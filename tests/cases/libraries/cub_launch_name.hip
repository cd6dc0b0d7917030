// hipify-py-flags: --hip-kernel-execution-syntax

#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>

namespace hipcub {
template <typename T> __global__ void Helper(T* p) {}
}

void run(float* p) {
  hipLaunchKernelGGL(HIP_KERNEL_NAME(hipcub::Helper<float>), dim3(1), dim3(1), 0, 0, p);
}
