// hipify-py-flags: --miopen
// MIOpen has no cudnnSetTensor4dDescriptor (its miopenSet4dTensorDescriptor takes no layout),
// no CUDNN_TENSOR_NCHW and no CUDNN_DATA_FLOAT under these names: the file is reported once as
// needing hand work (HPY115), what MIOpen has is translated, and each gap is reported where it is.
#include <cudnn.h>

void describe(cudnnTensorDescriptor_t* desc, int n, int c, int h, int w) {
  cudnnCreateTensorDescriptor(desc);
  cudnnSetTensor4dDescriptor(*desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w);
}
