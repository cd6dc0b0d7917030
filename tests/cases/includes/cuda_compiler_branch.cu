// hipify-py-flags: --path cu.h
#ifndef CU_H
#define CU_H

#ifdef __CUDACC__
#define CHECK(x) if ((x) != cudaSuccess) { abort(); }
#define DEV __device__
#else
#define CHECK(x) (x)
#define DEV
#endif

DEV inline static int twice(int x) { return 2 * x; }

#endif
