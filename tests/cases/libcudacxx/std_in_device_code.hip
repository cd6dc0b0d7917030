#include <type_traits>
#include <limits>
#include <utility>
#include <tuple>
#include <hip/hip_runtime.h>

template <class T>
__global__ void clamp_to_max(T* data, int n) {
  static_assert(std::is_arithmetic<T>::value, "numbers only");
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    std::pair<T, T> bounds = std::make_pair(T(0), std::numeric_limits<T>::max() / 2);
    T lo = std::get<0>(std::make_tuple(bounds.first, 1));
    data[i] = data[i] < lo ? lo : (data[i] > bounds.second ? bounds.second : data[i]);
  }
}

template __global__ void clamp_to_max<float>(float*, int);
