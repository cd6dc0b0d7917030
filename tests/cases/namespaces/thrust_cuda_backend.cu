#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <cuda_runtime.h>

float total(thrust::device_vector<float>& v, cudaStream_t stream) {
  thrust::sort(thrust::cuda::par.on(stream), v.begin(), v.end());
  thrust::sort(thrust::cuda::par_nosync.on(stream), v.begin(), v.end());
  float a = thrust::reduce(thrust::system::cuda::par.on(stream), v.begin(), v.end());
  return a + thrust::reduce(thrust::cuda_cub::par, v.begin(), v.end());
}
