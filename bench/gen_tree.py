"""Generate a deterministic, realistic CUDA source tree for benchmarks.

Files look like real projects: license headers, include guards, error-check macros,
kernels with shared memory and warp shuffles, templated launches, host code calling
runtime APIs (drawn from the mapping table), comments and strings mentioning CUDA names.
Usage: python bench/gen_tree.py OUT_DIR [--files 750] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from hipify.knowledge.table import load_table

HEADER = """// Copyright (c) 2024 Example Authors. All rights reserved.
// Licensed under the Apache License, Version 2.0 (the "License"); you may not use
// this file except in compliance with the License. cudaMalloc and friends are
// mentioned here only in a comment, which must survive byte for byte.
"""

CHECK = """#define CHECK_CUDA(call)                                                        \\
  do {                                                                          \\
    cudaError_t err_ = (call);                                                  \\
    if (err_ != cudaSuccess) {                                                  \\
      fprintf(stderr, "CUDA error %s at %s:%d\\n", cudaGetErrorString(err_),    \\
              __FILE__, __LINE__);                                              \\
      exit(EXIT_FAILURE);                                                       \\
    }                                                                           \\
  } while (0)
"""

KERNEL = """
template <typename T, int BLOCK>
__global__ void {name}_reduce(const T* __restrict__ in, T* out, size_t n) {{
  __shared__ T tile[BLOCK];
  const unsigned tid = threadIdx.x;
  size_t i = blockIdx.x * (size_t)blockDim.x + tid;
  T acc = 0;
  for (; i < n; i += (size_t)gridDim.x * blockDim.x) acc += in[i];
  for (int off = warpSize / 2; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffff, acc, off);
  if ((tid & (warpSize - 1)) == 0) tile[tid / warpSize] = acc;
  __syncthreads();
  if (tid == 0) {{
    T s = 0;
    for (int w = 0; w < BLOCK / 32; ++w) s += tile[w];
    atomicAdd(out, s);
  }}
}}

__global__ void {name}_axpy(int n, float a, const float* x, float* y) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaf(a, x[i], y[i]);  // "cudaMemcpy" in a string-like comment
}}
"""

HOST = """
int run_{name}(int n) {{
  float *d_x = nullptr, *d_y = nullptr, *d_sum = nullptr;
  cudaStream_t stream;
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  CHECK_CUDA(cudaMalloc(&d_x, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_y, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_sum, sizeof(float)));
  CHECK_CUDA(cudaMemsetAsync(d_sum, 0, sizeof(float), stream));
  CHECK_CUDA(cudaEventRecord(start, stream));
  dim3 block(256), grid((n + 255) / 256);
  {name}_axpy<<<grid, block, 0, stream>>>(n, 2.0f, d_x, d_y);
  {name}_reduce<float, 256><<<grid, block, 0, stream>>>(d_y, d_sum, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaEventRecord(stop, stream));
  CHECK_CUDA(cudaEventSynchronize(stop));
  float ms = 0.f;
  CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
  printf("{name}: %f ms (cudaEventElapsedTime)\\n", ms);
{extra}  CHECK_CUDA(cudaFree(d_x));
  CHECK_CUDA(cudaFree(d_y));
  CHECK_CUDA(cudaFree(d_sum));
  CHECK_CUDA(cudaStreamDestroy(stream));
  return 0;
}}
"""


def runtime_functions() -> list[str]:
    table = load_table()
    return sorted(r.cuda for r in table if r.api == "runtime" and r.kind == "function" and r.cuda.startswith("cuda"))


def make_file(index: int, rng: random.Random, apis: list[str]) -> str:
    name = f"mod{index}"
    parts = [
        HEADER,
        f"#ifndef {name.upper()}_CU\n#define {name.upper()}_CU\n",
        "#include <cuda_runtime.h>\n#include <cstdio>\n#include <cstdlib>\n\n",
        CHECK,
    ]
    for k in range(rng.randint(4, 6)):
        parts.append(KERNEL.format(name=f"{name}_{k}"))
    for k in range(rng.randint(4, 8)):
        calls = "".join(
            f"  // call {j}: {api} in a comment\n  (void){api};\n"
            for j, api in enumerate(rng.sample(apis, min(len(apis), 6)))
        )
        parts.append(HOST.format(name=f"{name}_{k}", extra=calls))
    parts.append(f"\n#endif  // {name.upper()}_CU\n")
    return "".join(parts)


def generate(out: Path, files: int, seed: int) -> int:
    rng = random.Random(seed)
    apis = runtime_functions()
    total = 0
    for i in range(files):
        sub = out / f"lib{i % 25}" / ("kernels" if i % 3 else "src")
        sub.mkdir(parents=True, exist_ok=True)
        suffix = ".cu" if i % 4 else ".cuh"
        text = make_file(i, rng, apis)
        (sub / f"mod{i}{suffix}").write_text(text)
        total += len(text.encode())
    return total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--files", type=int, default=750)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    size = generate(args.out, args.files, args.seed)
    print(f"wrote {args.files} files, {size / 1e6:.1f} MB to {args.out}")


if __name__ == "__main__":
    main()
