#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/system/hip/execution_policy.h>
#include <hip/hip_runtime.h>

float total(thrust::device_vector<float>& v, hipStream_t stream) {
  thrust::sort(thrust::hip::par.on(stream), v.begin(), v.end());
  thrust::sort(thrust::hip::par_nosync.on(stream), v.begin(), v.end());
  float a = thrust::reduce(thrust::system::hip::par.on(stream), v.begin(), v.end());
  return a + thrust::reduce(thrust::hip_rocprim::par, v.begin(), v.end());
}
