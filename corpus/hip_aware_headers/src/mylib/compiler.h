// Which compiler reads the library: it knows HIP's compiler from CUDA's itself.
#ifndef MYLIB_COMPILER_H
#define MYLIB_COMPILER_H

#if defined(__NVCC__) && defined(__HIPCC__)
#error "nvcc as HIP's back end is not supported"
#endif

#if defined(__NVCC__)
#if defined(__CUDACC_VER_MAJOR__) && (__CUDACC_VER_MAJOR__ >= 9)
#define MYLIB_NVCC_VERSION ((__CUDACC_VER_MAJOR__ * 10000) + (__CUDACC_VER_MINOR__ * 100))
#elif defined(__CUDACC_VER__)
#define MYLIB_NVCC_VERSION __CUDACC_VER__
#else
#error "nvcc did not say its version"
#endif
#else
#define MYLIB_NVCC_VERSION 0
#endif

#if defined(__CUDACC__) || defined(__HIPCC__)
#define MYLIB_HOST_DEVICE __host__ __device__
#else
#define MYLIB_HOST_DEVICE
#endif

#if defined(__CUDACC__) && !defined(MYLIB_NO_CUDA)
#define MYLIB_CUDACC 1
#endif
#if defined(__HIPCC__) && !defined(MYLIB_NO_HIP)
#define MYLIB_HIPCC 1
#endif

#if defined(MYLIB_CUDACC)
#define MYLIB_COMPILER "cuda"
#elif defined(MYLIB_HIPCC)
#define MYLIB_COMPILER "hip"
#else
#define MYLIB_COMPILER "host"
#endif

#endif  // MYLIB_COMPILER_H
