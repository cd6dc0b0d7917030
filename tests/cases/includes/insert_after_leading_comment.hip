// A file with a leading comment and no includes at all.
// Second line of the comment.

#include <hip/hip_runtime.h>

__global__ void noop() {}
