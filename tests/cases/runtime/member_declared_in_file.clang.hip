#include <hip/hip_runtime.h>

// The regex engine sees cudaFree declared in this file (a member function) and, being
// unable to tell the scopes apart, leaves every cudaFree alone; the clang engine renames
// the call to the global one (member_declared_in_file.clang.hip).
struct Wrapper {
  int cudaMalloc;
  void cudaFree() {}
};

void use(Wrapper& w) {
  w.cudaMalloc = 1;
  w.cudaFree();
  hipFree(nullptr);
}
