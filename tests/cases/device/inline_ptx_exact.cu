#include <cstdint>
__global__ void k(unsigned long long *counter, float *f, uint64_t *times) {
  unsigned lane, mask;
  uint64_t t;
  asm volatile("red.global.add.u64 [%0], %1;" :: "l"(counter), "l"(1ULL) : "memory");
  asm volatile("red.global.add.f32 [%0], %1;" :: "l"(f + 1), "f"(2.0f));
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm("activemask.b32 %0;" : "=r"(mask));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(times[threadIdx.x]));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  asm volatile("add.u32 %0, %1, %2;" : "=r"(lane) : "r"(lane), "r"(mask));
}
