// multifile: a small project laid out like a real repository (see ../CMakeLists.txt): kernels in
// src/stencil.cu behind src/stencil.cuh, an RAII device buffer in include/common/device_buffer.cuh,
// error-check helpers guarded by CUDA header include-guard macros and CUDA-version #ifs in
// include/common/cuda_check.h, and plain C++ in src/host_utils.cpp calling the runtime API.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "common/cuda_check.h"
#include "common/device_buffer.cuh"
#include "host_utils.h"
#include "stencil.cuh"

int main() {
  const int n = 1000, steps = 3;  // 3 steps of 1/16 weights stay exact in float
  std::vector<float> signal = host_utils::make_signal(n);
  std::vector<float> ref = host_utils::reference_smooth(signal, steps);
  const unsigned long long ref_sum = host_utils::checksum(ref);
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("multifile: PASS checksum=%016llx\n", ref_sum);
  return 0;
#endif
  if (host_utils::visible_devices() < 1) {
    std::printf("multifile: FAIL no device\n");
    return 1;
  }
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  std::vector<float> out;
  {
    common::DeviceBuffer<float> a(n, stream), b(n, stream);
    a.upload(signal);
    std::fprintf(stderr, "upload: %s\n", memcpy_kind_name(cudaMemcpyHostToDevice));
    float* result = stencil::smooth_steps_graph(a.get(), b.get(), n, steps, stream);
    (result == a.get() ? a : b).download(out);
  }
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaStreamDestroy(stream));
  const unsigned long long sum = host_utils::checksum(out);
  if (out != ref) {
    std::printf("multifile: FAIL %016llx\n", sum);
    return 1;
  }
  std::printf("multifile: PASS checksum=%016llx\n", sum);
  return 0;
}
