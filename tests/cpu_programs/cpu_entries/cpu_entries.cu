#include <climits>
#include <cstdio>
#include <cstring>
#include <cuComplex.h>
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// A program's own floating-point atomicMin (CUDA had none before 12.8): it, not the CPU branch's, is called.
__device__ float atomicMin(float* address, float val) {
  int* bits = (int*)address;
  int old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __float_as_int(fminf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void float_atomics(float* top, double* low) {
  atomicMin(top + 1, -0.25f * threadIdx.x);
  atomicMax(top, 0.5f * threadIdx.x);
  atomicMin(low, -1.0 * threadIdx.x);
}

__global__ void atomics(int* counter, unsigned int* top, int* flag, int* warp) {
  atomicAdd_system(counter, 2);
  atomicMax_system(top, threadIdx.x + 1);
  atomicCAS_system(flag, 0, 7);
  if (threadIdx.x == 0) *warp = warpSize;
}

// The error strings called in device code: the compatibility header's device overloads are hipcc's; HIP-CPU's own
// functions serve its kernels.
__global__ void error_names(const char** names) {
  names[0] = cudaGetErrorName(cudaErrorInvalidValue);
  names[1] = cudaGetErrorString(cudaErrorInvalidValue);
}

__global__ void scale(float* x) { x[threadIdx.x] *= 2.0f; }

// The argmax of each block's values over warps of 32, written for CUDA: width-32 shuffles of a value and its index
// with a 32-bit mask variable (the compatibility header's HIP code then declares overloads on it, which must not
// take the CPU branch's place), the last stage reached by the first 32 threads only (half of a 64-wide warp).
__host__ __device__ int value_at(int i, int block) { return ((i + 37 * block) * 7919) % 10007; }
__global__ void warp32_argmax(int* out) {
  const unsigned int all = 0xffffffffu;
  __shared__ int best_values[32];
  __shared__ int best_at[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int value = value_at(threadIdx.x, blockIdx.x), at = threadIdx.x;
  for (int offset = 16; offset > 0; offset >>= 1) {
    const int other = __shfl_xor_sync(all, value, offset, 32);
    const int other_at = __shfl_xor_sync(all, at, offset, 32);
    if (other > value) value = other, at = other_at;
  }
  if (lane == 0) best_values[warp] = value, best_at[warp] = at;
  __syncthreads();
  if (warp == 0) {
    value = lane < blockDim.x / 32 ? best_values[lane] : -1;
    at = lane < blockDim.x / 32 ? best_at[lane] : -1;
    for (int offset = 16; offset > 0; offset >>= 1) {
      const int other = __shfl_down_sync(all, value, offset, 32);
      const int other_at = __shfl_down_sync(all, at, offset, 32);
      if (other > value) value = other, at = other_at;
    }
    if (lane == 0) out[blockIdx.x] = at;
  }
}

static void CUDART_CB host_step(void* data) { *static_cast<int*>(data) += 1; }

static int failures = 0;
static void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("wrong: %s\n", what);
    ++failures;
  }
}

int main() {
  int sms = 0, shared = 0, warp_attr = 0, mode = -1, host_atomics = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) == cudaSuccess && sms > 0, "SM count");
  cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerBlock, 0);
  cudaDeviceGetAttribute(&warp_attr, cudaDevAttrWarpSize, 0);
  cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0);
  cudaDeviceGetAttribute(&host_atomics, cudaDevAttrHostNativeAtomicSupported, 0);
  check(shared > 0, "shared memory per block");
  check(mode != cudaComputeModeProhibited, "compute mode");
  check(host_atomics == 1, "host atomics");
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  check(prop.warpSize == warp_attr && prop.multiProcessorCount == sms, "properties agree with attributes");

  int *counter, *flag, *warp;
  unsigned int* top;
  cudaMallocManaged(&counter, sizeof(int));
  cudaMallocManaged(&top, sizeof(unsigned int));
  cudaMallocManaged(&flag, sizeof(int));
  cudaMallocManaged(&warp, sizeof(int));
  *counter = 0, *top = 0, *flag = 0, *warp = 0;
  atomics<<<4, 128>>>(counter, top, flag, warp);
  cudaDeviceSynchronize();
  check(*counter == 4 * 128 * 2 && *top == 128 && *flag == 7, "system-wide atomics");
  check(*warp == warp_attr, "the warp size attribute is the kernels' warpSize");
  float* ftop;
  double* dlow;
  cudaMallocManaged(&ftop, 2 * sizeof(float));
  cudaMallocManaged(&dlow, sizeof(double));
  ftop[0] = 0.0f, ftop[1] = 0.0f, *dlow = 0.0;
  float_atomics<<<2, 64>>>(ftop, dlow);
  cudaDeviceSynchronize();
  check(ftop[0] == 31.5f && *dlow == -63.0 && ftop[1] == -15.75f, "floating-point atomicMax and atomicMin");

  cuDoubleComplex a = make_cuDoubleComplex(1.0, 2.0), b = make_cuDoubleComplex(3.0, -1.0);
  cuDoubleComplex p = cuCmul(a, b), q = cuCdiv(p, b);
  check(cuCreal(p) == 5.0 && cuCimag(p) == 5.0, "cuCmul");
  check(cuCreal(q) == 1.0 && cuCimag(q) == 2.0, "cuCdiv");
  check(cuCabs(make_cuDoubleComplex(3.0, 4.0)) == 5.0, "cuCabs");
  cuFloatComplex f = cuCdivf(make_cuFloatComplex(5.0f, 5.0f), make_cuFloatComplex(3.0f, -1.0f));
  check(cuCrealf(f) == 1.0f && cuCimagf(f) == 2.0f, "cuCdivf");
  check(cuCreal(cuCadd(a, cuConj(a))) == 2.0 && cuCimag(cuCsub(a, b)) == 3.0, "cuCadd, cuCsub, cuConj");

  check(__float2int_rd(-1.5f) == -2 && __float2int_ru(1.1f) == 2 && __float2int_rz(-1.7f) == -1, "float to int");
  check(__float2int_rn(2.5f) == 2 && __float2int_rn(3.5f) == 4 && __double2ll_rn(-2.5) == -2, "ties to even");
  check(__float2int_rn(3e10f) == INT_MAX && __float2uint_rn(-3.0f) == 0u, "saturation");
  check(__int2float_rd(16777217) == 16777216.0f && __int2float_ru(16777217) == 16777218.0f, "int to float");
  check(__double2float_rd(1.0 + 1e-12) == 1.0f && __double2float_ru(1.0 + 1e-12) > 1.0f, "double to float");
  check(__ull2double_rz(18446744073709551615ull) < 18446744073709551616.0, "ull to double toward zero");

  check(cudaErrorIllegalState != cudaSuccess && cudaErrorStreamCaptureUnsupported != cudaErrorIllegalState,
        "error codes");
  cudaFuncCache cache = cudaFuncCachePreferNone;
  check(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared) == cudaSuccess &&
            cudaDeviceGetCacheConfig(&cache) == cudaSuccess && cache == cudaFuncCachePreferShared,
        "cache preference");
  check(cudaFuncSetCacheConfig(scale, cudaFuncCachePreferL1) == cudaSuccess, "a kernel's cache preference");
  int least = -1, greatest = -1, host_calls = 0;
  cudaStream_t stream;
  cudaEvent_t done;
  check(cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess && least == 0 && greatest == 0,
        "priority range");
  check(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, greatest) == cudaSuccess, "stream priority");
  cudaEventCreate(&done);
  float host[32], *dev;
  for (int i = 0; i < 32; ++i) host[i] = float(i);
  cudaMalloc(&dev, sizeof(host));
  cudaMemcpyAsync(dev, host, sizeof(host), cudaMemcpyHostToDevice, stream);
  scale<<<1, 32, 0, stream>>>(dev);
  cudaLaunchHostFunc(stream, host_step, &host_calls);
  cudaEventRecord(done, stream);
  while (cudaEventQuery(done) == cudaErrorNotReady) {
  }
  check(host_calls == 1, "host function in the stream");
  float* copy;
  cudaMalloc(&copy, sizeof(host));
  cuMemcpyDtoD((CUdeviceptr)copy, (CUdeviceptr)dev, sizeof(host));
  cudaMemcpy(host, copy, sizeof(host), cudaMemcpyDeviceToHost);
  check(host[31] == 62.0f, "kernel, host function and device-to-device copy in order");
  cudaStream_t other;
  cudaEvent_t scaled;
  cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);
  cudaEventCreate(&scaled);
  scale<<<1, 32, 0, stream>>>(copy);
  cudaEventRecord(scaled, stream);
  cudaEvent_t never;
  cudaEventCreate(&never);
  check(cudaStreamWaitEvent(other, never, 0) == cudaSuccess && cudaEventQuery(never) == cudaSuccess,
        "waiting for and asking about an event never recorded");
  cudaStreamWaitEvent(other, scaled, 0);  // an event of another stream, maybe still queued
  scale<<<1, 32, 0, other>>>(copy);
  cudaStreamSynchronize(other);
  cudaMemcpy(host, copy, sizeof(host), cudaMemcpyDeviceToHost);
  check(host[31] == 248.0f, "a stream waiting for another's event");

  CUdevice device;
  char name[64] = {0};
  size_t total = 0;
  const char* error_name = nullptr;
  cuInit(0);
  cuDeviceGet(&device, 0);
  check(cuDeviceGetName(name, sizeof(name), device) == CUDA_SUCCESS && name[0] != '\0', "device name");
  check(cuDeviceTotalMem(&total, device) == CUDA_SUCCESS && total > 0, "device memory");
  CUcontext primary, current;
  check(cuDevicePrimaryCtxRetain(&primary, device) == CUDA_SUCCESS && cuCtxSetCurrent(primary) == CUDA_SUCCESS &&
            cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == primary && cuCtxSynchronize() == CUDA_SUCCESS,
        "primary context");
  cuDevicePrimaryCtxRelease(device);
  check(cuGetErrorName(CUDA_SUCCESS, &error_name) == CUDA_SUCCESS && error_name != nullptr, "driver error name");

  const char** names;
  const char* found[2] = {nullptr, nullptr};
  cudaMalloc(&names, sizeof(found));
  error_names<<<1, 1>>>(names);
  cudaMemcpy(found, names, sizeof(found), cudaMemcpyDeviceToHost);
  check(found[0] != nullptr && std::strstr(found[0], "InvalidValue") != nullptr && found[1] != nullptr,
        "error names in device code");

  for (int threads : {64, 256}) {
    int* where;
    int got[4] = {-1, -1, -1, -1};
    cudaMalloc(&where, sizeof(got));
    warp32_argmax<<<4, threads>>>(where);
    cudaMemcpy(got, where, sizeof(got), cudaMemcpyDeviceToHost);
    for (int block = 0; block < 4; ++block) {
      int best = 0;
      for (int i = 1; i < threads; ++i) best = value_at(i, block) > value_at(best, block) ? i : best;
      check(got[block] == best, "width-32 shuffles with a 32-bit mask, half of a 64-wide warp taking part");
    }
    cudaFree(where);
  }

  int* pinned = nullptr;
  float* pinned_floats = nullptr;
  check(cudaHostAlloc((void**)&pinned, 64 * sizeof(int), cudaHostAllocPortable | cudaHostAllocMapped) ==
                cudaSuccess &&
            cudaHostAlloc(&pinned_floats, 64 * sizeof(float), cudaHostAllocMapped | cudaHostAllocPortable) ==
                cudaSuccess &&
            pinned != nullptr && pinned_floats != nullptr,
        "pinned host memory with flags or-ed together");
  pinned[63] = 5;
  pinned_floats[63] = 0.5f;
  cudaFreeHost(pinned);
  cudaFreeHost(pinned_floats);

  half h = __float2half(1.5f);
  half2 pair = __halves2half2(h, __float2half(-2.0f));
  check(__half2float(h) == 1.5f && __half2float(__low2half(pair)) == 1.5f, "half, and the low half");
  check(__half2float(__high2half(pair)) == -2.0f && __high2float(__floats2half2_rn(0.5f, 4.0f)) == 4.0f,
        "the high half");
  check(__low2float(__lows2half2(pair, __high2half2(pair))) == 1.5f, "halves of two pairs");

  std::printf("cpu_entries: %s (%d wrong)\n", failures == 0 ? "PASS" : "FAIL", failures);
  return failures == 0 ? 0 : 1;
}
