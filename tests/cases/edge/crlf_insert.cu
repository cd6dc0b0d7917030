// header comment
#include <vector>

__global__ void k() {}
