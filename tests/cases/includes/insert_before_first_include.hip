/*
 * Copyright 2024 Example Authors.
 * SPDX-License-Identifier: MIT
 */

#include <hip/hip_runtime.h>
#include <cstdio>
#include <vector>

__global__ void fill(int* out) { out[threadIdx.x] = threadIdx.x; }
