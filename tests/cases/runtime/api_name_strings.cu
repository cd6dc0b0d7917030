// CUDA names a program hands the runtime as strings: driver functions looked up by name through a helper, and
// error names compared with the runtime's; messages and comments keep their text.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstring>
#include <string>
#include <stdexcept>
template <typename Fn>
void load(const char* name, Fn* fn) {
  cudaDriverEntryPointQueryResult status;
  if (cudaGetDriverEntryPoint(name, reinterpret_cast<void**>(fn), cudaEnableDefault, &status) != cudaSuccess)
    throw std::runtime_error(std::string("cannot load ") + name);  // "cuMemCreate" in a comment stays
}
struct Api {
  decltype(&cuMemCreate) create;
  decltype(&cuMemRelease) release;
};
void init(Api& api) {
  load("cuMemCreate", &api.create);
  load("cuMemRelease", &api.release);
  const char* message = "cuMemCreate";  // not an argument: stays
  (void)message;
  void* other = nullptr;
  load("cuMemBatchDecompressAsync", &other);
}
bool is_invalid_device(cudaError_t e) {
  return std::strcmp(cudaGetErrorName(e), "cudaErrorInvalidDevice") == 0 || std::string(cudaGetErrorName(e)) == "cudaErrorNoDevice";
}
