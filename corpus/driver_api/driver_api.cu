// driver_api: the CUDA driver API without kernels of its own: cuInit, device enumeration and
// attributes (cuDeviceGetCount/Get/GetName/TotalMem/GetAttribute), the primary context
// (cuDevicePrimaryCtxRetain, cuCtxSetCurrent/GetCurrent, cuCtxSynchronize), memory
// (cuMemAlloc, cuMemsetD32, cuMemsetD8, cuMemcpyHtoD/DtoH/DtoD, cuMemAllocHost, cuMemGetInfo),
// streams and events (cuStreamCreate, cuMemcpyHtoDAsync, cuEventRecord/Synchronize/ElapsedTime),
// and error names through cuGetErrorName/cuGetErrorString, all behind a CU_CHECK macro.
// Device pointers are integers in CUDA: offsets from a variable, a member function's result (one returning
// CUdeviceptr, one whose return type is deduced) and a free function's result.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>

#define CU_CHECK(call)                                                                   \
  do {                                                                                   \
    CUresult res_ = (call);                                                              \
    if (res_ != CUDA_SUCCESS) {                                                          \
      const char* name_ = nullptr;                                                       \
      const char* msg_ = nullptr;                                                        \
      cuGetErrorName(res_, &name_);                                                      \
      cuGetErrorString(res_, &msg_);                                                     \
      std::fprintf(stderr, "%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #call, name_, msg_); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

class Allocation {
 public:
  explicit Allocation(CUdeviceptr ptr) : ptr_(ptr) {}
  auto Raw() const { return ptr_; }
 private:
  CUdeviceptr ptr_;
};

class View {
 public:
  explicit View(CUdeviceptr ptr) : alloc_(ptr) {}
  CUdeviceptr Base() const { return alloc_.Raw(); }
 private:
  Allocation alloc_;
};

static CUdeviceptr element(CUdeviceptr base, int i) { return base + i * sizeof(int); }

int main() {
  const int n = 4096;
  long long ref = 0;
  for (int i = 0; i < n; ++i) ref += (i < 100) ? 0x05050505LL : (i % 64 == 0 ? i : 42);
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("driver_api: PASS checksum=%lld\n", ref);
  return 0;
#endif
  CU_CHECK(cuInit(0));
  int count = 0;
  CU_CHECK(cuDeviceGetCount(&count));
  if (count < 1) { std::printf("driver_api: FAIL no device\n"); return 1; }
  CUdevice dev;
  CU_CHECK(cuDeviceGet(&dev, 0));
  char name[256];
  CU_CHECK(cuDeviceGetName(name, sizeof(name), dev));
  size_t total = 0;
  CU_CHECK(cuDeviceTotalMem(&total, dev));
  int major = 0, minor = 0;
  CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CU_CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  std::fprintf(stderr, "device: %s (%d.%d), %zu MiB\n", name, major, minor, total >> 20);

  CUcontext ctx, current;
  CU_CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU_CHECK(cuCtxSetCurrent(ctx));
  CU_CHECK(cuCtxGetCurrent(&current));
  bool ok = current == ctx;

  size_t free_b = 0, total_b = 0;
  CU_CHECK(cuMemGetInfo(&free_b, &total_b));
  ok = ok && free_b > 0 && total_b >= free_b;

  CUdeviceptr a, b;
  CU_CHECK(cuMemAlloc(&a, n * sizeof(int)));
  CU_CHECK(cuMemAlloc(&b, n * sizeof(int)));
  CU_CHECK(cuMemsetD32(a, 42, n));
  int* pinned = nullptr;
  CU_CHECK(cuMemAllocHost((void**)&pinned, n * sizeof(int)));
  for (int i = 0; i < n; ++i) pinned[i] = i;
  CUstream stream;
  CUevent start, stop;
  CU_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CU_CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CU_CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  CU_CHECK(cuEventRecord(start, stream));
  CU_CHECK(cuMemcpyHtoDAsync(b, pinned, n * sizeof(int), stream));
  CU_CHECK(cuEventRecord(stop, stream));
  CU_CHECK(cuStreamSynchronize(stream));
  CU_CHECK(cuEventSynchronize(stop));
  float ms = -1.0f;
  CU_CHECK(cuEventElapsedTime(&ms, start, stop));
  ok = ok && ms >= 0.0f;
  // every 64th element comes from b; the first 100 ints get bytes of 0x05
  const View from(b);
  const View* to = new View(a);
  for (int i = 0; i < n; i += 64)
    CU_CHECK(cuMemcpyDtoD(to->Base() + i * sizeof(int), element(from.Base(), i), sizeof(int)));
  ok = ok && from.Base() - b == 0 && element(a, 2) - to->Base() == 2 * sizeof(int);
  delete to;
  CU_CHECK(cuMemsetD8(a, 0x05, 100 * sizeof(int)));
  CU_CHECK(cuCtxSynchronize());
  int* host = (int*)std::malloc(n * sizeof(int));
  CU_CHECK(cuMemcpyDtoH(host, a, n * sizeof(int)));
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += host[i];
  std::free(host);
  CU_CHECK(cuEventDestroy(start));
  CU_CHECK(cuEventDestroy(stop));
  CU_CHECK(cuStreamDestroy(stream));
  CU_CHECK(cuMemFreeHost(pinned));
  CU_CHECK(cuMemFree(a));
  CU_CHECK(cuMemFree(b));
  CU_CHECK(cuDevicePrimaryCtxRelease(dev));
  if (!ok || sum != ref) { std::printf("driver_api: FAIL %lld\n", sum); return 1; }
  std::printf("driver_api: PASS checksum=%lld\n", sum);
  return 0;
}
