#include "../kernels.cuh"

template void launch_scale<4>(const float*, float*, int, cudaStream_t);
