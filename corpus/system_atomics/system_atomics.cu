// system_atomics: atomicInc_system/atomicDec_system on managed memory the host reads back, with CUDA's
// wrap-around rules (inc: old >= limit ? 0 : old + 1; dec: old == 0 || old > limit ? limit : old - 1). Each call
// applies the same function to the counter, so the final values and the sum of the old values the calls return
// do not depend on the order in which the threads run.
#include <cstdio>
#include <cstdlib>
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

constexpr unsigned int LIMIT = 37u;
constexpr int THREADS = 256;
constexpr int BLOCKS = 8;

struct Counters {
  unsigned int up, down;                // the counters the kernel steps
  unsigned long long up_olds, down_olds;  // sums of the old values the calls returned
};

__global__ void step(Counters* c) {
  unsigned int up_old = atomicInc_system(&c->up, LIMIT);
  unsigned int down_old = atomicDec_system(&c->down, LIMIT);
  atomicAdd(&c->up_olds, (unsigned long long)up_old);
  atomicAdd(&c->down_olds, (unsigned long long)down_old);
}

int main() {
  const int calls = THREADS * BLOCKS;
  Counters ref = {5u, 5u, 0ull, 0ull};
  for (int i = 0; i < calls; ++i) {
    ref.up_olds += ref.up;
    ref.up = ref.up >= LIMIT ? 0u : ref.up + 1u;
    ref.down_olds += ref.down;
    ref.down = (ref.down == 0u || ref.down > LIMIT) ? LIMIT : ref.down - 1u;
  }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("system_atomics: PASS checksum=%u/%u/%llu/%llu\n", ref.up, ref.down, ref.up_olds, ref.down_olds);
  return 0;
#endif
  Counters* c;
  CHECK(cudaMallocManaged(&c, sizeof(Counters)));
  c->up = 5u;
  c->down = 5u;
  c->up_olds = 0ull;
  c->down_olds = 0ull;
  step<<<BLOCKS, THREADS>>>(c);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  Counters got = *c;
  CHECK(cudaFree(c));
  bool ok = got.up == ref.up && got.down == ref.down && got.up_olds == ref.up_olds && got.down_olds == ref.down_olds;
  if (!ok) {
    std::printf("system_atomics: FAIL got %u/%u/%llu/%llu\n", got.up, got.down, got.up_olds, got.down_olds);
    return 1;
  }
  std::printf("system_atomics: PASS checksum=%u/%u/%llu/%llu\n", got.up, got.down, got.up_olds, got.down_olds);
  return 0;
}
