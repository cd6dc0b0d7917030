#include "../kernels.cuh"

template void launch_softmax<float>(const float*, const int*, float*, int*, int, int, cudaStream_t);
