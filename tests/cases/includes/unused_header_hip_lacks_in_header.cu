// hipify-py-flags: --path kernels.cuh
// In a header the include of mma.h stays though the header itself uses nothing of it: its includers may.
#pragma once
#include <mma.h>

__device__ inline float twice(float x) { return 2.0f * x; }
