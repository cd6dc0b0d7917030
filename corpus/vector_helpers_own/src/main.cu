// vector_helpers_own: a project's own operators on float2/float4 (helper_math.h style: +, *, / of two float2, +=
// of float4, *= of float2) and its own atomicMax(float*, float), used beside CUDA's atomicMax(int*, int). All
// values are dyadic, so every result is exact on any GPU; checked against a CPU reference.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "vec_helpers.h"

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t err_ = (call);                                                               \
    if (err_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

constexpr int N = 1024;

__host__ __device__ inline float2 step(float2 p, float2 q) {
  float2 r = (p + q) * p / make_float2(2.0f, 4.0f);
  r *= make_float2(0.5f, 2.0f);
  return r;
}

__global__ void combine(const float2* p, const float2* q, float2* out, float4* acc, float* fmax, int* imax) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float2 r = step(p[i], q[i]);
  out[i] = r;
  float4 add = make_float4(r.x, r.y, 1.0f, 0.25f);
  acc[i] += add;
  acc[i] += add;
  atomicMax(fmax, r.x - r.y);
  atomicMax(imax, (int)r.x);
}

int main() {
  std::vector<float2> p(N), q(N), ref(N);
  for (int i = 0; i < N; ++i) {
    p[i] = make_float2((float)(i % 17) * 0.25f, (float)(i % 5) + 1.0f);
    q[i] = make_float2((float)(i % 7) * 0.5f, (float)(i % 3) * 0.125f);
  }
  float ref_max = -1e30f;
  int ref_imax = -1;
  double sum = 0.0;
  for (int i = 0; i < N; ++i) {
    ref[i] = step(p[i], q[i]);
    ref_max = ref[i].x - ref[i].y > ref_max ? ref[i].x - ref[i].y : ref_max;
    ref_imax = (int)ref[i].x > ref_imax ? (int)ref[i].x : ref_imax;
    sum += ref[i].x + ref[i].y;
  }
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("vector_helpers_own: PASS checksum=%.4f/%.4f/%d\n", sum, ref_max, ref_imax);
  return 0;
#endif
  float2 *d_p, *d_q, *d_out;
  float4* d_acc;
  float* d_fmax;
  int* d_imax;
  CHECK(cudaMalloc(&d_p, N * sizeof(float2)));
  CHECK(cudaMalloc(&d_q, N * sizeof(float2)));
  CHECK(cudaMalloc(&d_out, N * sizeof(float2)));
  CHECK(cudaMalloc(&d_acc, N * sizeof(float4)));
  CHECK(cudaMalloc(&d_fmax, sizeof(float)));
  CHECK(cudaMalloc(&d_imax, sizeof(int)));
  CHECK(cudaMemcpy(d_p, p.data(), N * sizeof(float2), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_q, q.data(), N * sizeof(float2), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_acc, 0, N * sizeof(float4)));
  float lowest = -1e30f;
  int none = -1;
  CHECK(cudaMemcpy(d_fmax, &lowest, sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_imax, &none, sizeof(int), cudaMemcpyHostToDevice));
  combine<<<N / 128, 128>>>(d_p, d_q, d_out, d_acc, d_fmax, d_imax);
  CHECK(cudaGetLastError());
  std::vector<float2> out(N);
  std::vector<float4> acc(N);
  float fmax_v;
  int imax_v;
  CHECK(cudaMemcpy(out.data(), d_out, N * sizeof(float2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(acc.data(), d_acc, N * sizeof(float4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&fmax_v, d_fmax, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&imax_v, d_imax, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_p));
  CHECK(cudaFree(d_q));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_acc));
  CHECK(cudaFree(d_fmax));
  CHECK(cudaFree(d_imax));
  double got = 0.0;
  bool ok = fmax_v == ref_max && imax_v == ref_imax;
  for (int i = 0; i < N; ++i) {
    ok = ok && out[i].x == ref[i].x && out[i].y == ref[i].y;
    ok = ok && acc[i].x == 2 * ref[i].x && acc[i].y == 2 * ref[i].y && acc[i].z == 2.0f && acc[i].w == 0.5f;
    got += out[i].x + out[i].y;
  }
  if (!ok) {
    std::printf("vector_helpers_own: FAIL\n");
    return 1;
  }
  std::printf("vector_helpers_own: PASS checksum=%.4f/%.4f/%d\n", got, fmax_v, imax_v);
  return 0;
}
