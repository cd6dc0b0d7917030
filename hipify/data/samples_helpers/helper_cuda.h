// helper_cuda.h for HIP, written by hipify-py: the error checks and device selection of NVIDIA's CUDA samples
// (their Common folder), with the behaviour NVIDIA documents, on HIP's runtime. The names stay the samples' own
// (checkCudaErrors, getLastCudaError, findCudaDevice, ...) so that translated code calls them unchanged.
#ifndef HIPIFY_SAMPLES_HELPER_CUDA_H
#define HIPIFY_SAMPLES_HELPER_CUDA_H

#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper_string.h"

#ifndef EXIT_WAIVED
#define EXIT_WAIVED 2
#endif

inline const char* _cudaGetErrorEnum(hipError_t error) { return hipGetErrorName(error); }

// A failed call prints where it was and what it was, and ends the program (as the samples' check does).
template <typename T>
void check(T result, char const* const func, const char* const file, int const line) {
  if (result) {
    fprintf(stderr, "HIP error at %s:%d code=%d(%s) \"%s\" \n", file, line, static_cast<unsigned int>(result),
            _cudaGetErrorEnum(static_cast<hipError_t>(result)), func);
    exit(EXIT_FAILURE);
  }
}

#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

inline void __getLastCudaError(const char* errorMessage, const char* file, const int line) {
  hipError_t err = hipGetLastError();
  if (hipSuccess != err) {
    fprintf(stderr, "%s(%i) : getLastCudaError() HIP error : %s : (%d) %s.\n", file, line, errorMessage,
            static_cast<int>(err), hipGetErrorString(err));
    exit(EXIT_FAILURE);
  }
}

inline void __printLastCudaError(const char* errorMessage, const char* file, const int line) {
  hipError_t err = hipGetLastError();
  if (hipSuccess != err) {
    fprintf(stderr, "%s(%i) : getLastCudaError() HIP error : %s : (%d) %s.\n", file, line, errorMessage,
            static_cast<int>(err), hipGetErrorString(err));
  }
}

#define getLastCudaError(msg) __getLastCudaError(msg, __FILE__, __LINE__)
#define printLastCudaError(msg) __printLastCudaError(msg, __FILE__, __LINE__)

#ifndef MAX
#define MAX(a, b) (a > b ? a : b)
#endif

// Round a float to the nearest integer.
inline int ftoi(float value) { return value >= 0 ? static_cast<int>(value + 0.5f) : static_cast<int>(value - 0.5f); }

// NVIDIA's table of cores per multiprocessor by compute capability has no AMD counterpart: an AMD compute unit
// runs 64 lanes per cycle on every GPU the HIP runtime reports, which is what the samples use the number for.
inline int _ConvertSMVer2Cores(int major, int minor) {
  (void)major;
  (void)minor;
  return 64;
}

// NVIDIA's architecture names by compute capability; an AMD GPU is named by hipDeviceProp_t::gcnArchName.
inline const char* _ConvertSMVer2ArchName(int major, int minor) {
  (void)major;
  (void)minor;
  return "AMD GPU";
}

inline int gpuDeviceInit(int devID) {
  int device_count = 0;
  checkCudaErrors(hipGetDeviceCount(&device_count));
  if (device_count == 0) {
    fprintf(stderr, "gpuDeviceInit() HIP error: no devices supporting HIP.\n");
    exit(EXIT_FAILURE);
  }
  if (devID < 0) devID = 0;
  if (devID > device_count - 1) {
    fprintf(stderr, "\n>> %d HIP capable GPU device(s) detected. <<\n", device_count);
    fprintf(stderr, ">> gpuDeviceInit (-device=%d) is not a valid GPU device. <<\n\n", devID);
    return -devID;
  }
  checkCudaErrors(hipSetDevice(devID));
  hipDeviceProp_t props;
  checkCudaErrors(hipGetDeviceProperties(&props, devID));
  printf("gpuDeviceInit() HIP Device [%d]: \"%s\n", devID, props.name);
  return devID;
}

// The device with the most multiprocessors times clock (the samples' "max GFLOPS" choice).
inline int gpuGetMaxGflopsDeviceId() {
  int device_count = 0;
  checkCudaErrors(hipGetDeviceCount(&device_count));
  if (device_count == 0) {
    fprintf(stderr, "gpuGetMaxGflopsDeviceId() HIP error: no devices supporting HIP.\n");
    exit(EXIT_FAILURE);
  }
  int best = 0;
  unsigned long long best_perf = 0;
  // (the device's properties, not hipDeviceGetAttribute: HIP-CPU, which runs the translation on a CPU, has them)
  for (int device = 0; device < device_count; ++device) {
    hipDeviceProp_t props;
    checkCudaErrors(hipGetDeviceProperties(&props, device));
    int clock = props.clockRate > 0 ? props.clockRate : 1;
    unsigned long long perf =
        static_cast<unsigned long long>(props.multiProcessorCount) * _ConvertSMVer2Cores(0, 0) * clock;
    if (perf > best_perf) {
      best_perf = perf;
      best = device;
    }
  }
  return best;
}

// The device named by -device=N on the command line, else the fastest; made current.
inline int findCudaDevice(int argc, const char** argv) {
  int devID = 0;
  if (checkCmdLineFlag(argc, argv, "device")) {
    devID = getCmdLineArgumentInt(argc, argv, "device=");
    if (devID < 0) {
      printf("Invalid command line parameter\n ");
      exit(EXIT_FAILURE);
    }
    devID = gpuDeviceInit(devID);
    if (devID < 0) {
      printf("exiting...\n");
      exit(EXIT_FAILURE);
    }
  } else {
    devID = gpuGetMaxGflopsDeviceId();
    checkCudaErrors(hipSetDevice(devID));
    hipDeviceProp_t props;
    checkCudaErrors(hipGetDeviceProperties(&props, devID));
    printf("GPU Device %d: \"%s\" with compute capability %d.%d\n\n", devID, props.name, props.major, props.minor);
  }
  return devID;
}

// An integrated GPU (one sharing the host's memory), or -1.
inline int findIntegratedGPU() {
  int device_count = 0;
  checkCudaErrors(hipGetDeviceCount(&device_count));
  for (int device = 0; device < device_count; ++device) {
    hipDeviceProp_t props;
    checkCudaErrors(hipGetDeviceProperties(&props, device));
    if (props.integrated) {
      checkCudaErrors(hipSetDevice(device));
      return device;
    }
  }
  return -1;
}

// NVIDIA checks a compute capability; HIP reports its own version numbers for AMD GPUs (gfx90a: 9.0), which no
// NVIDIA capability compares with: every HIP device passes, as the translated code targets it.
inline bool checkCudaCapabilities(int major_version, int minor_version) {
  (void)major_version;
  (void)minor_version;
  int device = 0;
  return hipGetDevice(&device) == hipSuccess;
}

#endif  // HIPIFY_SAMPLES_HELPER_CUDA_H
