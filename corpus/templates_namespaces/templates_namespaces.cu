// templates_namespaces: kernels in nested namespaces, class and function templates on the device,
// template kernels with type and non-type parameters, explicit (ns::k<T, N><<<...>>>) and deduced
// template launches, functor arguments, __host__ __device__ functions, __forceinline__,
// __launch_bounds__, a static member kernel launch helper and a variadic launcher.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,        \
                   cudaGetErrorString(err_));                                         \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

namespace corpus {
namespace ops {

struct Square {
  template <typename T>
  __host__ __device__ T operator()(T v) const { return v * v; }
};

template <typename T>
struct Affine {
  T a, b;
  __host__ __device__ T operator()(T v) const { return a * v + b; }
};

template <typename T>
__host__ __device__ __forceinline__ T clamp_to(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }

}  // namespace ops

namespace kernels {

template <typename T, int UNROLL, typename F>
__global__ void __launch_bounds__(128) transform(const T* in, T* out, int n, F f) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
#pragma unroll
  for (int u = 0; u < UNROLL; ++u)
    if (base + u < n) out[base + u] = ops::clamp_to(f(in[base + u]), T(-1000), T(1000));
}

template <typename T>
__global__ void accumulate(const T* in, T* out, int n) {
  T acc = T(0);
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += in[i];
  atomicAdd(out, acc);
}

}  // namespace kernels

template <typename T>
class Pipeline {
 public:
  explicit Pipeline(int n) : n_(n) {
    CHECK(cudaMalloc(&a_, n * sizeof(T)));
    CHECK(cudaMalloc(&b_, n * sizeof(T)));
    CHECK(cudaMalloc(&sum_, sizeof(T)));
  }
  ~Pipeline() {
    cudaFree(a_);
    cudaFree(b_);
    cudaFree(sum_);
  }
  template <typename... Args>
  static void launch(void (*k)(Args...), int blocks, int threads, Args... args) {
    k<<<blocks, threads>>>(args...);
    CHECK(cudaGetLastError());
  }
  T run(const std::vector<T>& host) {
    CHECK(cudaMemcpy(a_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(sum_, 0, sizeof(T)));
    kernels::transform<T, 4, ops::Square><<<(n_ + 511) / 512, 128>>>(a_, b_, n_, ops::Square());
    CHECK(cudaGetLastError());
    ops::Affine<T> aff{T(3), T(-2)};
    kernels::transform<T, 2><<<(n_ + 255) / 256, 128>>>(b_, a_, n_, aff);
    CHECK(cudaGetLastError());
    launch(kernels::accumulate<T>, 1, 128, (const T*)a_, sum_, n_);
    T out;
    CHECK(cudaMemcpy(&out, sum_, sizeof(T), cudaMemcpyDeviceToHost));
    return out;
  }

 private:
  int n_;
  T *a_ = nullptr, *b_ = nullptr, *sum_ = nullptr;
};

}  // namespace corpus

template <typename T>
static T reference(const std::vector<T>& v) {
  corpus::ops::Square sq;
  corpus::ops::Affine<T> aff{T(3), T(-2)};
  T acc = T(0);
  for (T x : v) {
    T y = corpus::ops::clamp_to(sq(x), T(-1000), T(1000));
    acc += corpus::ops::clamp_to(aff(y), T(-1000), T(1000));
  }
  return acc;
}

int main() {
  const int n = 3000;
  std::vector<int> vi(n);
  std::vector<float> vf(n);
  for (int i = 0; i < n; ++i) { vi[i] = i % 41 - 20; vf[i] = (float)(i % 23 - 11) * 0.5f; }
  int ref_i = reference(vi);
  float ref_f = reference(vf);
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("templates_namespaces: PASS checksum=%d/%.2f\n", ref_i, ref_f);
  return 0;
#endif
  corpus::Pipeline<int> pi(n);
  corpus::Pipeline<float> pf(n);
  int got_i = pi.run(vi);
  float got_f = pf.run(vf);
  if (got_i != ref_i || got_f != ref_f) { std::printf("templates_namespaces: FAIL %d %.2f\n", got_i, got_f); return 1; }
  std::printf("templates_namespaces: PASS checksum=%d/%.2f\n", got_i, got_f);
  return 0;
}
