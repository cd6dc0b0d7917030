// The runtime's C++ forms HIP lacks: a typed pointer's address where HIP takes void** (CUDA's template
// overload), and a default argument HIP's declaration requires (cudaMalloc3DArray's flags).
#include <hip/hip_runtime.h>

void mapped(int n) {
    float* host;
    float* dev;
    hipHostMalloc(&host, n * sizeof(float), hipHostMallocMapped);
    hipHostGetDevicePointer(reinterpret_cast<void**>(&dev), host, 0);
    hipHostGetDevicePointer((void**)&dev, host, 0);  // already void**: kept
    hipArray_t arr;
    hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
    hipMalloc3DArray(&arr, &desc, make_hipExtent(n, n, 1), 0);
    hipMalloc3DArray(&arr, &desc, make_hipExtent(n, n, 1), hipArraySurfaceLoadStore);
}
