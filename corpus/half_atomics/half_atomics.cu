// half_atomics: atomicAdd on __half, __half2, __nv_bfloat16 and __nv_bfloat162 in global and shared memory, many
// threads adding to a few slots: small dyadic values keep every partial sum exact in either type, so the totals
// do not depend on the order, and the old values each call returns are the partial sums 0, 1, ..., n-1 in some
// order (their sum is checked). Results do not depend on the warp size.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t err_ = (call);                                                                   \
    if (err_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));         \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

const int kThreads = 256;
const int kSlots = 4;  // threads per slot: kThreads / kSlots = 64, exact in half and bfloat16

// out: per slot the totals (half, half2 lanes, bf16, bf162 lanes, shared half) and the sums of the old values.
__global__ void add_all(__half* h, __half2* h2, __nv_bfloat16* b, __nv_bfloat162* b2, float* olds) {
  __shared__ __half shared_h[kSlots];
  const int t = threadIdx.x, slot = t % kSlots;
  if (t < kSlots) shared_h[t] = __float2half(0.0f);
  __syncthreads();
  const __half old_h = atomicAdd(&h[slot], __float2half(1.0f));
  const __half2 old_h2 = atomicAdd(&h2[slot], __floats2half2_rn(1.0f, 0.5f));
  const __nv_bfloat16 old_b = atomicAdd(&b[slot], __float2bfloat16(1.0f));
  const __nv_bfloat162 old_b2 = atomicAdd(&b2[slot], __floats2bfloat162_rn(0.5f, 1.0f));
  const __half old_s = atomicAdd(&shared_h[slot], __float2half(2.0f));
  atomicAdd(&olds[slot * 6 + 0], __half2float(old_h));
  atomicAdd(&olds[slot * 6 + 1], __low2float(old_h2));
  atomicAdd(&olds[slot * 6 + 2], __high2float(old_h2));
  atomicAdd(&olds[slot * 6 + 3], __bfloat162float(old_b));
  atomicAdd(&olds[slot * 6 + 4], __low2float(old_b2) + __high2float(old_b2));
  atomicAdd(&olds[slot * 6 + 5], __half2float(old_s));
  __syncthreads();
  if (t < kSlots) olds[kSlots * 6 + t] = __half2float(shared_h[t]);
}

int main() {
  const int per_slot = kThreads / kSlots;
  const double partial = per_slot * (per_slot - 1) / 2.0;  // 0 + 1 + ... + (per_slot - 1)
  std::vector<float> ref;
  for (int s = 0; s < kSlots; ++s) ref.insert(ref.end(), {(float)per_slot, (float)per_slot, per_slot * 0.5f,
                                                          (float)per_slot, per_slot * 0.5f, (float)per_slot});
  for (int s = 0; s < kSlots; ++s)
    ref.insert(ref.end(), {(float)partial, (float)partial, (float)(partial * 0.5), (float)partial,
                           (float)(partial * 1.5), (float)(partial * 2.0)});
  for (int s = 0; s < kSlots; ++s) ref.push_back(2.0f * per_slot);
  unsigned long long hash = 1469598103934665603ULL;
  for (float v : ref) hash = (hash ^ (unsigned long long)(v * 2.0f)) * 1099511628211ULL;
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("half_atomics: PASS checksum=%016llx\n", hash);
  return 0;
#else
  __half* h;
  __half2* h2;
  __nv_bfloat16* b;
  __nv_bfloat162* b2;
  float* olds;
  const int n_olds = kSlots * 6 + kSlots;
  CHECK(cudaMalloc(&h, kSlots * sizeof(__half)));
  CHECK(cudaMalloc(&h2, kSlots * sizeof(__half2)));
  CHECK(cudaMalloc(&b, kSlots * sizeof(__nv_bfloat16)));
  CHECK(cudaMalloc(&b2, kSlots * sizeof(__nv_bfloat162)));
  CHECK(cudaMalloc(&olds, n_olds * sizeof(float)));
  CHECK(cudaMemset(h, 0, kSlots * sizeof(__half)));
  CHECK(cudaMemset(h2, 0, kSlots * sizeof(__half2)));
  CHECK(cudaMemset(b, 0, kSlots * sizeof(__nv_bfloat16)));
  CHECK(cudaMemset(b2, 0, kSlots * sizeof(__nv_bfloat162)));
  CHECK(cudaMemset(olds, 0, n_olds * sizeof(float)));
  add_all<<<1, kThreads>>>(h, h2, b, b2, olds);
  CHECK(cudaGetLastError());
  std::vector<__half> got_h(kSlots);
  std::vector<__half2> got_h2(kSlots);
  std::vector<__nv_bfloat16> got_b(kSlots);
  std::vector<__nv_bfloat162> got_b2(kSlots);
  std::vector<float> got_olds(n_olds);
  CHECK(cudaMemcpy(got_h.data(), h, kSlots * sizeof(__half), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_h2.data(), h2, kSlots * sizeof(__half2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_b.data(), b, kSlots * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_b2.data(), b2, kSlots * sizeof(__nv_bfloat162), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_olds.data(), olds, n_olds * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<float> got;
  for (int s = 0; s < kSlots; ++s)
    got.insert(got.end(), {__half2float(got_h[s]), __low2float(got_h2[s]), __high2float(got_h2[s]),
                           __bfloat162float(got_b[s]), __low2float(got_b2[s]), __high2float(got_b2[s])});
  got.insert(got.end(), got_olds.begin(), got_olds.end());
  for (size_t i = 0; i < ref.size(); ++i) {
    if (got[i] != ref[i]) {
      std::printf("half_atomics: FAIL value %zu: %g, expected %g\n", i, got[i], ref[i]);
      return 1;
    }
  }
  std::printf("half_atomics: PASS checksum=%016llx\n", hash);
  return 0;
#endif
}
