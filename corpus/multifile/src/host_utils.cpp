#include "host_utils.h"

#include <cuda_runtime_api.h>

#include <cmath>

#include "stencil.cuh"

namespace host_utils {

std::vector<float> make_signal(int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = (float)((i * 37) % 64);  // multiples of 1/16 stay exact
  return v;
}

std::vector<float> reference_smooth(const std::vector<float>& in, int steps) {
  std::vector<float> a = in, b(in.size());
  const int n = (int)in.size();
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) {
      float acc = 0.0f;
      for (int o = -stencil::kRadius; o <= stencil::kRadius; ++o) acc += stencil::weight(o) * a[stencil::clamp_index(i + o, n)];
      b[i] = acc;
    }
    a.swap(b);
  }
  return a;
}

unsigned long long checksum(const std::vector<float>& v) {
  unsigned long long h = 1469598103934665603ULL;
  for (float x : v) h = (h ^ (unsigned long long)std::llround(x * 4096.0)) * 1099511628211ULL;
  return h;
}

int visible_devices() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return 0;
  return count;
}

}  // namespace host_utils
