// Members of CUDA structs that HIP's struct lacks are reported where they are used, and left as written.
#include <hip/hip_runtime.h>
#include <cstdio>

void report(const hipDeviceProp_t& prop, hipDeviceProp_t* others, int n) {
  std::printf("%s %d %d\n", prop.name, prop.mpsEnabled, prop.multiProcessorCount);
  for (int i = 0; i < n; ++i) std::printf("%d\n", others[i].hostNumaId + others->major);
}

hipMemPool_t make_pool(int device) {
  hipMemPoolProps props = {};
  props.allocType = hipMemAllocationTypePinned;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = device;
  props.usage = 0;
  hipMemPool_t pool;
  hipMemPoolCreate(&pool, &props);
  return pool;
}

// Another struct's member of the same name is not the struct's.
struct Budget { int usage; };
int spent(const Budget& budget) { return budget.usage; }
