// nccl_allreduce: NCCL collectives on every visible GPU of one process, laid out as multi-GPU benchmark suites
// are: ncclCommInitAll, grouped ncclAllReduce (ncclAvg under an NCCL_VERSION_CODE check, ncclSum otherwise),
// ncclBroadcast and ncclAllGather, ncclGetVersion/ncclGetErrorString; a kernel that counts its work with a
// one-instruction inline-PTX reduction (red.global.add.u64) and reads %laneid; a weak alias of a host entry point
// (#pragma weak); built by its Makefile, which names the CUDA runtime and NCCL through make variables
// (CUDARTLIB ?= cudart, NCCL_LIB ?= nccl, $(LIBRARIES:%=-l%)) as well as a literal -lnccl.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <nccl.h>

#define CUDACHECK(call)                                                                          \
  do {                                                                                           \
    cudaError_t err_ = (call);                                                                   \
    if (err_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));         \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

#define NCCLCHECK(call)                                                                          \
  do {                                                                                           \
    ncclResult_t res_ = (call);                                                                  \
    if (res_ != ncclSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, ncclGetErrorString(res_));         \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

constexpr int N = 1 << 12;
constexpr int MAX_RANKS = 8;

// The suite's entry point, also exported under a weak name that a wrapper library can interpose.
extern "C" int run_suite(int ranks);
#pragma weak run_suite_alias = run_suite

// rank r's element i: small integers, so that sums and averages over up to 8 ranks stay exact in float
static float value(int rank, int i) { return float((i * 7 + rank * 3) % 32); }

__global__ void fill(float* out, int rank, unsigned long long* work, unsigned* lanes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    out[i] = float((i * 7 + rank * 3) % 32);
    asm volatile("red.global.add.u64 [%0], %1;" ::"l"(work), "l"(1ULL) : "memory");
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    if (lane == 0) atomicAdd(lanes, 1u);
  }
}

static unsigned long long checksum(const std::vector<float>& v) {
  unsigned long long h = 1469598103934665603ULL;
  for (float x : v) h = (h ^ (unsigned long long)(x * 8.0f)) * 1099511628211ULL;
  return h;
}

extern "C" int run_suite(int ranks) {
  // CPU reference: the average (sum / ranks, exact for these values), rank 0's data broadcast, all ranks gathered
  std::vector<float> avg(N), bcast(N), gathered((size_t)N * ranks);
  for (int i = 0; i < N; ++i) {
    float s = 0;
    for (int r = 0; r < ranks; ++r) s += value(r, i);
    avg[i] = s / ranks;
    bcast[i] = value(0, i);
    for (int r = 0; r < ranks; ++r) gathered[(size_t)r * N + i] = value(r, i);
  }
  bool ok = true;
#ifndef CORPUS_REFERENCE_ONLY
  std::vector<int> devs(ranks);
  for (int r = 0; r < ranks; ++r) devs[r] = r;
  ncclComm_t comms[MAX_RANKS];
  NCCLCHECK(ncclCommInitAll(comms, ranks, devs.data()));
  int version = 0;
  NCCLCHECK(ncclGetVersion(&version));
  if (version < NCCL_VERSION(2, 0, 0)) ok = false;
  float *send[MAX_RANKS], *recv[MAX_RANKS], *everyone[MAX_RANKS];
  unsigned long long* work[MAX_RANKS];
  unsigned* lanes[MAX_RANKS];
  cudaStream_t streams[MAX_RANKS];
  for (int r = 0; r < ranks; ++r) {
    CUDACHECK(cudaSetDevice(devs[r]));
    CUDACHECK(cudaMalloc(&send[r], N * sizeof(float)));
    CUDACHECK(cudaMalloc(&recv[r], N * sizeof(float)));
    CUDACHECK(cudaMalloc(&everyone[r], (size_t)N * ranks * sizeof(float)));
    CUDACHECK(cudaMalloc(&work[r], sizeof(unsigned long long)));
    CUDACHECK(cudaMalloc(&lanes[r], sizeof(unsigned)));
    CUDACHECK(cudaMemset(work[r], 0, sizeof(unsigned long long)));
    CUDACHECK(cudaMemset(lanes[r], 0, sizeof(unsigned)));
    CUDACHECK(cudaStreamCreate(&streams[r]));
    fill<<<(N + 255) / 256, 256, 0, streams[r]>>>(send[r], r, work[r], lanes[r]);
  }
  NCCLCHECK(ncclGroupStart());
  for (int r = 0; r < ranks; ++r) {
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 10, 0)
    NCCLCHECK(ncclAllReduce(send[r], recv[r], N, ncclFloat, ncclAvg, comms[r], streams[r]));
#else
    NCCLCHECK(ncclAllReduce(send[r], recv[r], N, ncclFloat, ncclSum, comms[r], streams[r]));
#endif
  }
  NCCLCHECK(ncclGroupEnd());
  std::vector<float> got(N), got_all((size_t)N * ranks);
  for (int r = 0; r < ranks; ++r) {
    CUDACHECK(cudaSetDevice(devs[r]));
    CUDACHECK(cudaStreamSynchronize(streams[r]));
    CUDACHECK(cudaMemcpy(got.data(), recv[r], N * sizeof(float), cudaMemcpyDeviceToHost));
#if NCCL_VERSION_CODE < NCCL_VERSION(2, 10, 0)
    for (float& x : got) x /= ranks;
#endif
    ok = ok && got == avg;
    unsigned long long done = 0;
    CUDACHECK(cudaMemcpy(&done, work[r], sizeof(done), cudaMemcpyDeviceToHost));
    ok = ok && done == (unsigned long long)N;
  }
  NCCLCHECK(ncclGroupStart());
  for (int r = 0; r < ranks; ++r) {
    NCCLCHECK(ncclBroadcast(send[r], recv[r], N, ncclFloat, 0, comms[r], streams[r]));
    NCCLCHECK(ncclAllGather(send[r], everyone[r], N, ncclFloat, comms[r], streams[r]));
  }
  NCCLCHECK(ncclGroupEnd());
  for (int r = 0; r < ranks; ++r) {
    CUDACHECK(cudaSetDevice(devs[r]));
    CUDACHECK(cudaStreamSynchronize(streams[r]));
    CUDACHECK(cudaMemcpy(got.data(), recv[r], N * sizeof(float), cudaMemcpyDeviceToHost));
    CUDACHECK(cudaMemcpy(got_all.data(), everyone[r], got_all.size() * sizeof(float), cudaMemcpyDeviceToHost));
    ok = ok && got == bcast && got_all == gathered;
    CUDACHECK(cudaFree(send[r]));
    CUDACHECK(cudaFree(recv[r]));
    CUDACHECK(cudaFree(everyone[r]));
    CUDACHECK(cudaFree(work[r]));
    CUDACHECK(cudaFree(lanes[r]));
    CUDACHECK(cudaStreamDestroy(streams[r]));
    NCCLCHECK(ncclCommDestroy(comms[r]));
  }
#endif
  std::printf("nccl_allreduce: %s checksum=%016llx/%016llx/%016llx\n", ok ? "PASS" : "FAIL", checksum(avg),
              checksum(bcast), checksum(gathered));
  return ok ? 0 : 1;
}

int main() {
  // one rank: the result does not depend on how many GPUs the machine has
  return run_suite(1);
}
