// hipify-py-flags: --path host_values.cpp
// CUdeviceptr in host C++: an output parameter dereferenced in arithmetic (a striped mapping), integer values
// taken from device pointers, orderings against numbers. Each keeps CUDA's integer meaning under HIP's void*.
#include <cuda.h>
#include <stdint.h>

CUresult map_stripes(CUdeviceptr* dptr, size_t size, size_t stripe, const CUmemGenericAllocationHandle* handles, int n) {
  CUresult status = cuMemAddressReserve(dptr, size, 0, 0, 0);
  for (int idx = 0; idx < n && status == CUDA_SUCCESS; idx++) {
    status = cuMemMap(*dptr + stripe * idx, stripe, 0, handles[idx], 0);
  }
  return status;
}

size_t offset_of(CUdeviceptr base, CUdeviceptr p, CUdeviceptr* table) {
  size_t off = p - base;
  unsigned long long raw = p;
  uint64_t first = table[0] + 16;
  bool mapped = p > 0 && 4096 <= base && p >= base;
  CUdeviceptr next = table[1] + off;
  *table += 64;
  return mapped ? off + raw + first + (size_t)next : 0;
}
