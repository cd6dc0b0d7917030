// CUDA names a program hands the runtime as strings: driver functions looked up by name through a helper, and
// error names compared with the runtime's; messages and comments keep their text.
#include <hip/hip_runtime.h>

#include <cstring>
#include <string>
#include <stdexcept>
template <typename Fn>
void load(const char* name, Fn* fn) {
  hipDriverEntryPointQueryResult status;
  if (hipGetDriverEntryPoint(name, reinterpret_cast<void**>(fn), hipEnableDefault, &status) != hipSuccess)
    throw std::runtime_error(std::string("cannot load ") + name);  // "cuMemCreate" in a comment stays
}
struct Api {
  decltype(&hipMemCreate) create;
  decltype(&hipMemRelease) release;
};
void init(Api& api) {
  load("hipMemCreate", &api.create);
  load("hipMemRelease", &api.release);
  const char* message = "cuMemCreate";  // not an argument: stays
  (void)message;
  void* other = nullptr;
  load("cuMemBatchDecompressAsync", &other);
}
bool is_invalid_device(hipError_t e) {
  return std::strcmp(hipGetErrorName(e), "hipErrorInvalidDevice") == 0 || std::string(hipGetErrorName(e)) == "hipErrorNoDevice";
}
