// hipify-py-flags: --path host_values.cpp
// CUdeviceptr in host C++: an output parameter dereferenced in arithmetic (a striped mapping), integer values
// taken from device pointers, orderings against numbers. Each keeps CUDA's integer meaning under HIP's void*.
#include <hip/hip_runtime.h>
#include <stdint.h>

hipError_t map_stripes(hipDeviceptr_t* dptr, size_t size, size_t stripe, const hipMemGenericAllocationHandle_t* handles, int n) {
  hipError_t status = hipMemAddressReserve(dptr, size, 0, 0, 0);
  for (int idx = 0; idx < n && status == hipSuccess; idx++) {
    status = hipMemMap((char*)*dptr + stripe * idx, stripe, 0, handles[idx], 0);
  }
  return status;
}

size_t offset_of(hipDeviceptr_t base, hipDeviceptr_t p, hipDeviceptr_t* table) {
  size_t off = (unsigned long long)p - (unsigned long long)base;
  unsigned long long raw = (unsigned long long)p;
  uint64_t first = (unsigned long long)table[0] + 16;
  bool mapped = (unsigned long long)p > 0 && 4096 <= (unsigned long long)base && p >= base;
  hipDeviceptr_t next = (char*)table[1] + off;
  (char*&)*table += 64;
  return mapped ? off + raw + first + (size_t)next : 0;
}
