// hipify-py-flags: --miopen
// Every cuDNN name here has a MIOpen equivalent that takes what the call passes: handle,
// status, descriptors and the activation are translated together.
#include <cudnn.h>
#include <cstdio>

#define CHECK_CUDNN(call)                                              \
  do {                                                                 \
    cudnnStatus_t s_ = (call);                                         \
    if (s_ != CUDNN_STATUS_SUCCESS) printf("%s\n", cudnnGetErrorString(s_)); \
  } while (0)

void relu(cudnnTensorDescriptor_t desc, const float* x, float* y) {
  cudnnHandle_t handle;
  CHECK_CUDNN(cudnnCreate(&handle));
  cudnnActivationDescriptor_t act;
  CHECK_CUDNN(cudnnCreateActivationDescriptor(&act));
  const float one = 1.f, zero = 0.f;
  CHECK_CUDNN(cudnnActivationForward(handle, act, &one, desc, x, &zero, desc, y));
  CHECK_CUDNN(cudnnDestroyActivationDescriptor(act));
  CHECK_CUDNN(cudnnDestroy(handle));
}
