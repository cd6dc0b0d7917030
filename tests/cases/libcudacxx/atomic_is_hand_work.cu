#include <cuda/atomic>
#include <cuda_runtime.h>

__global__ void count(cuda::atomic<int, cuda::thread_scope_device>* counter) {
  counter->fetch_add(1, cuda::std::memory_order_relaxed);
}
