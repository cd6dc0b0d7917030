// A CUB function hipCUB lacks, named by its namespace (cub::CurrentDevice): left out at the statement level,
// like a plain name HIP lacks, not kept as written for the whole file to fail on.
#include <cub/util_device.cuh>
#include <cub/util_allocator.cuh>
#include <cstdio>

struct Pool {
  cub::CachingDeviceAllocator allocator;
  void Log() const {
    int device = cub::CurrentDevice();
    std::printf("device %d\n", device);
  }
  int Devices() const { return 1; }
};

int use(Pool &p) { p.Log(); return p.Devices(); }
