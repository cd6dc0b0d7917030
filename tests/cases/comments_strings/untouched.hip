#include <hip/hip_runtime.h>

// cudaMalloc in a line comment stays.
/* cudaMemcpy in a block comment stays,
   even across lines: cudaFree(p); */
const char* msg = "cudaMalloc failed";
const char* raw = R"(cudaFree "quoted" inside)";
const char c = 'c';
const wchar_t* w = L"cudaStream_t";
const char* u8s = u8"cudaEvent_t";

void f(void** p) {
  hipMalloc(p, 4);  // cudaMalloc again
}
