#include <hip/hip_runtime.h>


// A driver table loaded at run time: its members are named after the driver functions they point to, behind a
// pointer (or reference) declarator. They are the project's names; the real functions keep their HIP names.
struct DriverTable {
  using MemCreateFn = hipError_t(hipMemGenericAllocationHandle_t *handle, size_t size, const hipMemAllocationProp *prop,
                               unsigned long long flags);
  using MemReleaseFn = hipError_t(hipMemGenericAllocationHandle_t handle);
  MemCreateFn *cuMemCreate{nullptr};
  MemReleaseFn *const *cuMemRelease = nullptr;
};

void bind(DriverTable &table, DriverTable::MemCreateFn *&cuMemMap) { cuMemMap = table.cuMemCreate; }

hipError_t make(DriverTable &table, hipMemGenericAllocationHandle_t *handle, const hipMemAllocationProp *prop) {
  return table.cuMemCreate(handle, 1 << 21, prop, 0);
}

// A flag after '&' and a real call stay uses of CUDA's names.
bool mapped(unsigned int flags) { return (flags & hipHostMallocMapped) != 0; }
hipError_t release_now(hipDeviceptr_t ptr) { return hipFree(ptr); }
