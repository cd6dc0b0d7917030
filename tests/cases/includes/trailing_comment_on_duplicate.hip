#include <hip/hip_runtime.h>
// driver API too
