// hipify-py-flags: --miopen
// Every cuDNN name here has a MIOpen equivalent that takes what the call passes: handle,
// status, descriptors and the activation are translated together.

#include <hip/hip_runtime.h>
#include <miopen/miopen.h>
#include <cstdio>

#define CHECK_CUDNN(call)                                              \
  do {                                                                 \
    miopenStatus_t s_ = (call);                                         \
    if (s_ != miopenStatusSuccess) printf("%s\n", miopenGetErrorString(s_)); \
  } while (0)

void relu(miopenTensorDescriptor_t desc, const float* x, float* y) {
  miopenHandle_t handle;
  CHECK_CUDNN(miopenCreate(&handle));
  miopenActivationDescriptor_t act;
  CHECK_CUDNN(miopenCreateActivationDescriptor(&act));
  const float one = 1.f, zero = 0.f;
  CHECK_CUDNN(miopenActivationForward(handle, act, &one, desc, x, &zero, desc, y));
  CHECK_CUDNN(miopenDestroyActivationDescriptor(act));
  CHECK_CUDNN(miopenDestroy(handle));
}
