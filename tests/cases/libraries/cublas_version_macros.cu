#include <cublas_v2.h>
#include <cstdio>
#if CUBLAS_VER_MAJOR >= 11
static const int ws = 1;
#else
static const int ws = 0;
#endif
void show() { printf("%d.%d %d\n", CUBLAS_VER_MAJOR, CUBLAS_VER_MINOR, ws); }
