// CUB's dispatch layer, called directly (as libraries do to pass their own begin/end bits): hipCUB has none of
// it, so the include becomes hipCUB's and the functions using it lose their bodies; the rest compiles.
#include <hipcub/hipcub.hpp>
#include <hipcub/device/device_radix_sort.hpp>
#include <hip/hip_runtime.h>

template <typename KeyT, typename OffsetT>
hipError_t SortKeysDirect(void* temp, size_t& bytes, const KeyT* in, KeyT* out, OffsetT n, hipStream_t s) {
  hipcub::DoubleBuffer<KeyT> keys(const_cast<KeyT*>(in), out);
  hipcub::DoubleBuffer<hipcub::NullType> values;
  return cub::DispatchRadixSort<cub::SortOrder::Ascending, KeyT, hipcub::NullType, OffsetT>::Dispatch(
      temp, bytes, keys, values, n, 0, sizeof(KeyT) * 8, false, s);
}

template <typename KeyT>
hipError_t SortKeys(void* temp, size_t& bytes, const KeyT* in, KeyT* out, int n, hipStream_t s) {
  return hipcub::DeviceRadixSort::SortKeys(temp, bytes, in, out, n, 0, sizeof(KeyT) * 8, s);
}

hipError_t run(void* t, size_t& b, const int* i, int* o, int n) {
  if (n > 1 << 20) return SortKeysDirect(t, b, i, o, n, 0);
  return SortKeys(t, b, i, o, n, 0);
}
