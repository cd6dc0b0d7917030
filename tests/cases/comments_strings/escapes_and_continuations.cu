#include <cuda_runtime.h>

const char* a = "escaped \" quote cudaFree \\";
const char* b = "line \
continued cudaFree";
// a comment with a continuation \
cudaFree(nullptr); still comment
void f() { cudaFree(nullptr); }
