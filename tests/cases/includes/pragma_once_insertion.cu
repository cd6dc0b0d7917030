// hipify-py-flags: --path helpers.cuh
#pragma once
#include <cstdint>

__device__ inline uint32_t lane_id() { return threadIdx.x & 31; }
