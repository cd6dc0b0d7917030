// Texture and surface objects are unsigned long long in CUDA and pointers in HIP: integer uses keep the integer.
#include <hip/hip_runtime.h>

struct Bank { hipTextureObject_t first; int count; };

__global__ void gather(hipTextureObject_t tex, hipTextureObject_t base, hipSurfaceObject_t surf, float* out, int n) {
  hipTextureObject_t next = (hipTextureObject_t)((unsigned long long)tex + 1);
  out[0] = tex1Dfetch<float>((hipTextureObject_t)((unsigned long long)tex + n * 2), 0);
  int slot = (unsigned long long)tex - (unsigned long long)base;
  int low = (int)(unsigned long long)tex;
  unsigned long long bits = (unsigned long long)tex % 4 + ((unsigned long long)surf & 3);
  int s = static_cast<int>((unsigned long long)surf);
  bool same = tex == base, unset = next == 0u, valid = tex != 0;
  if ((unsigned long long)tex == n) out[1] = slot + low + bits + s + same + unset + valid;
}

static int table[8];

int lookup(const Bank& bank, hipTextureObject_t tex) {
  int k = (unsigned long long)tex + 1;
  return table[(unsigned long long)tex] + table[(unsigned long long)tex - (unsigned long long)bank.first] + k;
}

// The same name declared with another type: which one a use means is not for the text to say.
static int offset(int handle) { return handle + 1; }
int shifted(hipTextureObject_t handle) { return handle % 2; }

// A member or a call on the other side may be a handle declared elsewhere: left alone.
bool matches(hipTextureObject_t tex, const Bank& bank) { return tex == bank.first || (unsigned long long)tex != 7; }
