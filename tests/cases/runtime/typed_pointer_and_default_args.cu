// The runtime's C++ forms HIP lacks: a typed pointer's address where HIP takes void** (CUDA's template
// overload), and a default argument HIP's declaration requires (cudaMalloc3DArray's flags).
#include <cuda_runtime.h>

void mapped(int n) {
    float* host;
    float* dev;
    cudaHostAlloc(&host, n * sizeof(float), cudaHostAllocMapped);
    cudaHostGetDevicePointer(&dev, host, 0);
    cudaHostGetDevicePointer((void**)&dev, host, 0);  // already void**: kept
    cudaArray_t arr;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaMalloc3DArray(&arr, &desc, make_cudaExtent(n, n, 1));
    cudaMalloc3DArray(&arr, &desc, make_cudaExtent(n, n, 1), cudaArraySurfaceLoadStore);
}
