// The backend's ops: each takes the context by reference, as every op of such a backend does.
#pragma once

#include "../common.cuh"

// out[r] = sum over the row of in[r][:] * scale, staging rows through shared memory (tiered by architecture).
void tb_row_sums(tb_context& ctx, const float* in, float* out, int rows, int cols, float scale);

// Lane-wise max and min over pairs of halves, reduced over a warp: out[0] = max, out[1] = min (as floats).
void tb_half_extrema(tb_context& ctx, const half2* in, int pairs, float* out);

// C = A * B (column-major, m x k times k x n) through cuBLAS on the context's handle.
void tb_matmul(tb_context& ctx, const float* a, const float* b, float* c, int m, int n, int k);

// y[i] = x[i] * factor for the mma tier's tile size multiple; portable path elsewhere.
void tb_scale_tiles(tb_context& ctx, const float* x, float* y, int n, float factor);
