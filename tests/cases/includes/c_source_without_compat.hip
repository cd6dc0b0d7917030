// hipify-py-flags: --path stats.c
#include <math.h>
#include <hip/hip_runtime.h>

int finite_sum(const double* v, int n, double* out) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    if (!isnan(v[i]) && !isinf(v[i])) s += v[i];
  *out = s;
  return hipDeviceSynchronize() == hipSuccess;
}
