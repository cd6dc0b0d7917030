// hipify-py-flags: --hip-kernel-execution-syntax
#include <hip/hip_runtime.h>

__global__ void k(int a, int b) {}

void run() {
  // A // comment ending a config or argument would swallow the rewritten text:
  // such launches keep their chevrons (and get an HPY109 note).
  hipLaunchKernelGGL(k, dim3(1), dim3(// one block
      64), 0, 0, 1, 2);
  k<<<1, 64>>>(1,
               2  // last
  );
  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, 1,  // first
      2);
}
