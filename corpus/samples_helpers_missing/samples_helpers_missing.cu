// samples_helpers_missing: code written in the style of NVIDIA's CUDA samples, including their Common helpers
// (helper_cuda.h, helper_timer.h) without the tree holding them: checkCudaErrors around runtime calls,
// getLastCudaError after a launch, findCudaDevice with the command line, an sdk timer around the kernel
// (sdkCreateTimer/sdkStartTimer/sdkStopTimer/sdkGetTimerValue/sdkDeleteTimer), checkCmdLineFlag; a prefix sum per
// block checked against the host.
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

#ifndef CORPUS_REFERENCE_ONLY
#include <helper_cuda.h>
#include <helper_timer.h>
#endif

constexpr int kBlock = 128;

__global__ void block_prefix(const int* in, int* out, int n) {
  __shared__ int tile[kBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int step = 1; step < kBlock; step *= 2) {
    int add = threadIdx.x >= step ? tile[threadIdx.x - step] : 0;
    __syncthreads();
    tile[threadIdx.x] += add;
    __syncthreads();
  }
  if (i < n) out[i] = tile[threadIdx.x];
}

int main(int argc, char** argv) {
  const int n = 1000;
  int* values = (int*)std::malloc(n * sizeof(int));
  int* expected = (int*)std::malloc(n * sizeof(int));
  long long checksum = 0;
  for (int i = 0; i < n; ++i) {
    values[i] = (i * 29) % 17 - 8;
    expected[i] = values[i] + (i % kBlock ? expected[i - 1] : 0);
    checksum += (long long)expected[i] * (i % 5 + 1);
  }
#ifdef CORPUS_REFERENCE_ONLY
  (void)argc;
  (void)argv;
  std::printf("samples_helpers_missing: PASS checksum=%lld\n", checksum);
  return 0;
#else
  // findCudaDevice reports the device it picks on stdout, by this machine's name for it: that report is set aside,
  // so that the output is what every machine prints (the reference output's lines)
  std::fflush(stdout);
  int saved_stdout = dup(1);
  int null_out = open("/dev/null", O_WRONLY);
  dup2(null_out, 1);
  close(null_out);
  int device = findCudaDevice(argc, (const char**)argv);
  std::fflush(stdout);
  dup2(saved_stdout, 1);
  close(saved_stdout);
  bool verbose = checkCmdLineFlag(argc, (const char**)argv, "verbose");
  int *d_in = nullptr, *d_out = nullptr;
  checkCudaErrors(cudaMalloc(&d_in, n * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_out, n * sizeof(int)));
  checkCudaErrors(cudaMemcpy(d_in, values, n * sizeof(int), cudaMemcpyHostToDevice));
  StopWatchInterface* timer = nullptr;
  sdkCreateTimer(&timer);
  sdkStartTimer(&timer);
  block_prefix<<<(n + kBlock - 1) / kBlock, kBlock>>>(d_in, d_out, n);
  getLastCudaError("block_prefix failed");
  checkCudaErrors(cudaDeviceSynchronize());
  sdkStopTimer(&timer);
  float ms = sdkGetTimerValue(&timer);
  sdkDeleteTimer(&timer);
  int* got = (int*)std::malloc(n * sizeof(int));
  checkCudaErrors(cudaMemcpy(got, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  long long sum = 0;
  for (int i = 0; i < n; ++i) {
    if (got[i] != expected[i]) {
      std::printf("samples_helpers_missing: FAIL at %d: %d != %d\n", i, got[i], expected[i]);
      return 1;
    }
    sum += (long long)got[i] * (i % 5 + 1);
  }
  if (ms < 0.0f || device < 0) {
    std::printf("samples_helpers_missing: FAIL timer %f device %d\n", ms, device);
    return 1;
  }
  if (verbose) std::fprintf(stderr, "kernel: %.3f ms\n", ms);  // (a time: no reference output holds it)
  checkCudaErrors(cudaFree(d_in));
  checkCudaErrors(cudaFree(d_out));
  std::printf("samples_helpers_missing: PASS checksum=%lld\n", sum);
  std::free(values);
  std::free(expected);
  std::free(got);
  return 0;
#endif
}
