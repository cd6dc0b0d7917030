/* Shared by the C host code (built by gcc) and the CUDA code: its device qualifiers only under a CUDA compiler. */
#ifndef SHARED_H
#define SHARED_H

#ifdef __CUDACC__
#define HD __host__ __device__
#define CHECK_DEVICE(call) ((call) == cudaSuccess)
#else
#define HD
#endif

#ifdef __cplusplus
extern "C" {
#endif

HD static inline int scaled(int x, int factor) { return x * factor + 1; }

/* stats.c: sum and maximum of a host array (plain C, no CUDA) */
long long sum_of(const int* values, int n);
int max_of(const int* values, int n);
/* stats.c: free device memory in MiB, through the CUDA runtime (C) */
int device_memory_mib(void);
/* scale.cu */
int scale_on_device(int* host, int n, int factor);
/* report.cpp */
void report(const char* what, long long value);

#ifdef __cplusplus
}
#endif

#endif
