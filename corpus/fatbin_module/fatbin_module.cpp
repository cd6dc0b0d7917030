// fatbin_module: a CMake project whose kernel is built alone into a fat binary by a custom command
// (${CMAKE_CUDA_COMPILER} -fatbin over a loop of -gencode options built from CMAKE_CUDA_ARCHITECTURES), and whose
// host program, plain C++ compiled as CXX with ${CUDAToolkit_INCLUDE_DIRS} and CUDA::cuda_driver, loads it at run
// time through the driver API (cuModuleLoad from the program's folder, cuModuleGetFunction, cuLaunchKernel with a
// parameter array) in the primary context.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda.h>

#define CU_CHECK(call)                                                                      \
  do {                                                                                      \
    CUresult res_ = (call);                                                                 \
    if (res_ != CUDA_SUCCESS) {                                                             \
      const char* msg_ = nullptr;                                                           \
      cuGetErrorString(res_, &msg_);                                                        \
      std::printf("fatbin_module: FAIL %s: %s\n", #call, msg_ ? msg_ : "unknown error");   \
      return 1;                                                                             \
    }                                                                                       \
  } while (0)

int main(int argc, char** argv) {
  const int n = 3000, a = 7, b = -3;
  std::vector<int> x(n), expected(n);
  long long ref = 0;
  for (int i = 0; i < n; ++i) {
    x[i] = (i * 13) % 97 - 48;
    expected[i] = a * x[i] + b;
    ref = ref * 3 + expected[i];
    ref %= 1000000007LL;
  }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("fatbin_module: PASS checksum=%lld\n", ref);
  return 0;
#endif
  // The fat binary is built next to the program.
  std::string path = argc > 0 ? argv[0] : "";
  size_t slash = path.rfind('/');
  path = (slash == std::string::npos ? std::string(".") : path.substr(0, slash)) + "/kernel.fatbin";

  CU_CHECK(cuInit(0));
  CUdevice device;
  CU_CHECK(cuDeviceGet(&device, 0));
  CUcontext context;
  CU_CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CU_CHECK(cuCtxSetCurrent(context));
  CUmodule module;
  CU_CHECK(cuModuleLoad(&module, path.c_str()));
  CUfunction affine;
  CU_CHECK(cuModuleGetFunction(&affine, module, "affine"));

  CUdeviceptr dx, dy;
  CU_CHECK(cuMemAlloc(&dx, n * sizeof(int)));
  CU_CHECK(cuMemAlloc(&dy, n * sizeof(int)));
  CU_CHECK(cuMemcpyHtoD(dx, x.data(), n * sizeof(int)));
  int count = n, scale = a, shift = b;
  void* params[] = {&dx, &dy, &count, &scale, &shift};
  const unsigned int block = 128, grid = (n + block - 1) / block;
  CU_CHECK(cuLaunchKernel(affine, grid, 1, 1, block, 1, 1, 0, nullptr, params, nullptr));
  CU_CHECK(cuCtxSynchronize());
  std::vector<int> y(n);
  CU_CHECK(cuMemcpyDtoH(y.data(), dy, n * sizeof(int)));
  CU_CHECK(cuMemFree(dx));
  CU_CHECK(cuMemFree(dy));
  CU_CHECK(cuModuleUnload(module));
  CU_CHECK(cuDevicePrimaryCtxRelease(device));

  long long sum = 0;
  for (int i = 0; i < n; ++i) {
    if (y[i] != expected[i]) {
      std::printf("fatbin_module: FAIL at %d: %d != %d\n", i, y[i], expected[i]);
      return 1;
    }
    sum = (sum * 3 + y[i]) % 1000000007LL;
  }
  std::printf("fatbin_module: PASS checksum=%lld\n", sum);
  return 0;
}
