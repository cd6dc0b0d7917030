#include <string>
#include <thrust/system/hip/error.h>
#include <thrust/system_error.h>
#include <hip/hip_runtime.h>

// Thrust's CUDA error category, named through the thrust and thrust::system namespaces.
std::string describe(hipError_t err) {
  std::string whole = thrust::system_error(err, thrust::hip_category()).what();
  const thrust::error_category &category = thrust::system::hip_category();
  return whole + category.name();
}
