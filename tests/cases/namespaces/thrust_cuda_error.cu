#include <string>
#include <thrust/system/cuda/error.h>
#include <thrust/system_error.h>
#include <cuda_runtime.h>

// Thrust's CUDA error category, named through the thrust and thrust::system namespaces.
std::string describe(cudaError_t err) {
  std::string whole = thrust::system_error(err, thrust::cuda_category()).what();
  const thrust::error_category &category = thrust::system::cuda_category();
  return whole + category.name();
}
