#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <cstdio>
#if hipblasVersionMajor >= 11
static const int ws = 1;
#else
static const int ws = 0;
#endif
void show() { printf("%d.%d %d\n", hipblasVersionMajor, hipblasVersionMinor, ws); }
