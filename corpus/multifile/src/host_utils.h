#pragma once
// Plain C++ helpers (compiled by the host compiler, not nvcc).
#include <vector>

namespace host_utils {
std::vector<float> make_signal(int n);
std::vector<float> reference_smooth(const std::vector<float>& in, int steps);
unsigned long long checksum(const std::vector<float>& v);
int visible_devices();  // via the CUDA runtime API from a .cpp file
}  // namespace host_utils
