#pragma once
// A minimal owning device buffer (RAII), templated on the element type.
#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

#include "common/cuda_check.h"

namespace common {

template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t n, cudaStream_t stream = nullptr) : n_(n), stream_(stream) {
#if COMMON_HAS_STREAM_ORDERED_ALLOC
    CHECK_CUDA(cudaMallocAsync(reinterpret_cast<void**>(&ptr_), n * sizeof(T), stream_));
#else
    CHECK_CUDA(cudaMalloc(&ptr_, n * sizeof(T)));
#endif
  }
  ~DeviceBuffer() {
#if COMMON_HAS_STREAM_ORDERED_ALLOC
    cudaFreeAsync(ptr_, stream_);
#else
    cudaFree(ptr_);
#endif
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return ptr_; }
  std::size_t size() const { return n_; }

  void upload(const std::vector<T>& host) {
    CHECK_CUDA(cudaMemcpyAsync(ptr_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice, stream_));
  }
  void download(std::vector<T>& host) const {
    host.resize(n_);
    CHECK_CUDA(cudaMemcpyAsync(host.data(), ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost, stream_));
    CHECK_CUDA(cudaStreamSynchronize(stream_));
  }

 private:
  std::size_t n_;
  cudaStream_t stream_;
  T* ptr_ = nullptr;
};

}  // namespace common
