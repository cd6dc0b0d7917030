#include <hip/hip_runtime.h>
#include <cstdint>
__global__ void k(unsigned long long *counter, float *f, uint64_t *times) {
  unsigned lane, mask;
  uint64_t t;
  atomicAdd((unsigned long long*)(counter), (unsigned long long)(1ULL));
  atomicAdd((float*)(f + 1), (float)(2.0f));
  lane = __lane_id();
  mask = __ballot(1);
  times[threadIdx.x] = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  asm volatile("add.u32 %0, %1, %2;" : "=r"(lane) : "r"(lane), "r"(mask));
}
