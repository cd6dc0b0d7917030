// Callables standing for HIP functions where a CUDA call passes its arguments in another form. Their parameters
// are the HIP function's own, so every argument converts as in a direct call (0 or NULL to a stream, an
// enumerator to its enum), and a macro standing for the CUDA name never splits an argument at a template's comma.
#include <cstddef>
#include <type_traits>
#include <utility>

namespace hipify_shim {

// One HIP function, called with its own parameter types.
template <class F>
struct direct;
template <class R, class... P>
struct direct<R (*)(P...)> {
  R (*function)(P...);
  R operator()(P... args) const { return function(static_cast<P>(args)...); }
};

// Several HIP functions as one overload set: the call's arguments choose (CUDA overloads a name by argument count
// where HIP names each form: cudaEventCreate(event, flags) is hipEventCreateWithFlags).
template <class... F>
struct overload_set : direct<F>... {
  using direct<F>::operator()...;
};
template <class... F>
constexpr overload_set<F...> overloads(F... functions) {
  return overload_set<F...>{{functions}...};
}

// A pointer HIP takes untyped where CUDA has a template taking it typed (a kernel: T* entry).
template <class P>
struct any_pointer {
  P value;
  template <class T>
  any_pointer(T* pointer) : value(reinterpret_cast<P>(pointer)) {}
  operator P() const { return value; }
};

// One HIP function whose parameter N takes any pointer, converted; the others are the function's own.
template <std::size_t N, class F, class Indices>
struct converting_call;
template <std::size_t N, class R, class... P, std::size_t... I>
struct converting_call<N, R (*)(P...), std::index_sequence<I...>> {
  R (*function)(P...);
  R operator()(typename std::conditional<I == N, any_pointer<P>, P>::type... args) const {
    return function(static_cast<P>(args)...);
  }
};
template <std::size_t N, class R, class... P>
constexpr converting_call<N, R (*)(P...), std::index_sequence_for<P...>> converting(R (*function)(P...)) {
  return {function};
}

}  // namespace hipify_shim
