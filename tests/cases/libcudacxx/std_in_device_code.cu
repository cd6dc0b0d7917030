#include <cuda/std/type_traits>
#include <cuda/std/limits>
#include <cuda/std/utility>
#include <cuda/std/tuple>
#include <cuda_runtime.h>

template <class T>
__global__ void clamp_to_max(T* data, int n) {
  static_assert(cuda::std::is_arithmetic<T>::value, "numbers only");
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    cuda::std::pair<T, T> bounds = cuda::std::make_pair(T(0), cuda::std::numeric_limits<T>::max() / 2);
    T lo = cuda::std::get<0>(cuda::std::make_tuple(bounds.first, 1));
    data[i] = data[i] < lo ? lo : (data[i] > bounds.second ? bounds.second : data[i]);
  }
}

template __global__ void clamp_to_max<float>(float*, int);
