#include <hip/hip_runtime.h>
#include <hiprand/hiprand.h>

void gen() {
  hiprandGenerator_t g;
  hiprandCreateGenerator(&g, 0);
}
