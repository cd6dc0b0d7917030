#include "../kernels.cuh"

template void launch_scale<2>(const float*, float*, int, cudaStream_t);
