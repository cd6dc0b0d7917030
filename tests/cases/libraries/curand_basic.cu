#include <curand.h>

void gen() {
  curandGenerator_t g;
  curandCreateGenerator(&g, 0);
}
