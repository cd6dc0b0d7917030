// A function returning CUdeviceptr (a member, through this-> and . and ->; a free one) is an operand like a
// variable; a member whose return type is deduced (auto) is no other declaration of the name.
#include <hip/hip_runtime.h>
#include <cstddef>
class Range {
 public:
  [[nodiscard]] auto Base() const { return ptr_; }
 private:
  hipDeviceptr_t ptr_{0};
};
class Pool {
 public:
  [[nodiscard]] hipDeviceptr_t Base() const { return range_.Base(); }
  void Grow(std::size_t used) {
    auto next = (char*)this->Base() + used;
    hipDeviceptr_t copy = (char*)Base() - 16;
    if (this->Base() != 0 && (unsigned long long)Base() % 256 == 0) hipMemsetD8(next, 0, (char*)copy - (char*)Base());
    void* p = reinterpret_cast<void*>(this->Base());
    (void)p;
  }
 private:
  Range range_;
};
static hipDeviceptr_t base_of(const Pool& pool) { return pool.Base(); }
hipError_t clear(const Pool& pool, Pool* other, std::size_t off) {
  hipDeviceptr_t (*get)(const Pool&) = base_of;
  return hipMemsetD8((char*)base_of(pool) + off, 0, (char*)other->Base() - (char*)pool.Base());
}
