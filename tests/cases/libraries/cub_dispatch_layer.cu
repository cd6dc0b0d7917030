// CUB's dispatch layer, called directly (as libraries do to pass their own begin/end bits): hipCUB has none of
// it, so the include becomes hipCUB's and the functions using it lose their bodies; the rest compiles.
#include <cub/device/dispatch/dispatch_radix_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

template <typename KeyT, typename OffsetT>
cudaError_t SortKeysDirect(void* temp, size_t& bytes, const KeyT* in, KeyT* out, OffsetT n, cudaStream_t s) {
  cub::DoubleBuffer<KeyT> keys(const_cast<KeyT*>(in), out);
  cub::DoubleBuffer<cub::NullType> values;
  return cub::DispatchRadixSort<cub::SortOrder::Ascending, KeyT, cub::NullType, OffsetT>::Dispatch(
      temp, bytes, keys, values, n, 0, sizeof(KeyT) * 8, false, s);
}

template <typename KeyT>
cudaError_t SortKeys(void* temp, size_t& bytes, const KeyT* in, KeyT* out, int n, cudaStream_t s) {
  return cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, n, 0, sizeof(KeyT) * 8, s);
}

cudaError_t run(void* t, size_t& b, const int* i, int* o, int n) {
  if (n > 1 << 20) return SortKeysDirect(t, b, i, o, n, 0);
  return SortKeys(t, b, i, o, n, 0);
}
