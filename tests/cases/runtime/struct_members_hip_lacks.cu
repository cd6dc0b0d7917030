// Members of CUDA structs that HIP's struct lacks are reported where they are used, and left as written.
#include <cuda_runtime.h>
#include <cstdio>

void report(const cudaDeviceProp& prop, cudaDeviceProp* others, int n) {
  std::printf("%s %d %d\n", prop.name, prop.mpsEnabled, prop.multiProcessorCount);
  for (int i = 0; i < n; ++i) std::printf("%d\n", others[i].hostNumaId + others->major);
}

cudaMemPool_t make_pool(int device) {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  props.usage = 0;
  cudaMemPool_t pool;
  cudaMemPoolCreate(&pool, &props);
  return pool;
}

// Another struct's member of the same name is not the struct's.
struct Budget { int usage; };
int spent(const Budget& budget) { return budget.usage; }
