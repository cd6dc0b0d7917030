#include <cuda.h>
#include <cuda_runtime.h>

// A driver table loaded at run time: its members are named after the driver functions they point to, behind a
// pointer (or reference) declarator. They are the project's names; the real functions keep their HIP names.
struct DriverTable {
  using MemCreateFn = CUresult(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
                               unsigned long long flags);
  using MemReleaseFn = CUresult(CUmemGenericAllocationHandle handle);
  MemCreateFn *cuMemCreate{nullptr};
  MemReleaseFn *const *cuMemRelease = nullptr;
};

void bind(DriverTable &table, DriverTable::MemCreateFn *&cuMemMap) { cuMemMap = table.cuMemCreate; }

CUresult make(DriverTable &table, CUmemGenericAllocationHandle *handle, const CUmemAllocationProp *prop) {
  return table.cuMemCreate(handle, 1 << 21, prop, 0);
}

// A flag after '&' and a real call stay uses of CUDA's names.
bool mapped(unsigned int flags) { return (flags & cudaHostAllocMapped) != 0; }
CUresult release_now(CUdeviceptr ptr) { return cuMemFree(ptr); }
