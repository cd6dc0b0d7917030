// Texture and surface objects are unsigned long long in CUDA and pointers in HIP: integer uses keep the integer.
#include <cuda_runtime.h>

struct Bank { cudaTextureObject_t first; int count; };

__global__ void gather(cudaTextureObject_t tex, cudaTextureObject_t base, cudaSurfaceObject_t surf, float* out, int n) {
  cudaTextureObject_t next = tex + 1;
  out[0] = tex1Dfetch<float>(tex + n * 2, 0);
  int slot = tex - base;
  int low = (int)tex;
  unsigned long long bits = tex % 4 + (surf & 3);
  int s = static_cast<int>(surf);
  bool same = tex == base, unset = next == 0u, valid = tex != 0;
  if (tex == n) out[1] = slot + low + bits + s + same + unset + valid;
}

static int table[8];

int lookup(const Bank& bank, cudaTextureObject_t tex) {
  int k = tex + 1;
  return table[tex] + table[tex - bank.first] + k;
}

// The same name declared with another type: which one a use means is not for the text to say.
static int offset(int handle) { return handle + 1; }
int shifted(cudaTextureObject_t handle) { return handle % 2; }

// A member or a call on the other side may be a handle declared elsewhere: left alone.
bool matches(cudaTextureObject_t tex, const Bank& bank) { return tex == bank.first || tex != 7; }
