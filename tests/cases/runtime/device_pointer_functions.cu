// A function returning CUdeviceptr (a member, through this-> and . and ->; a free one) is an operand like a
// variable; a member whose return type is deduced (auto) is no other declaration of the name.
#include <cuda.h>
#include <cstddef>
class Range {
 public:
  [[nodiscard]] auto Base() const { return ptr_; }
 private:
  CUdeviceptr ptr_{0};
};
class Pool {
 public:
  [[nodiscard]] CUdeviceptr Base() const { return range_.Base(); }
  void Grow(std::size_t used) {
    auto next = this->Base() + used;
    CUdeviceptr copy = Base() - 16;
    if (this->Base() != 0 && Base() % 256 == 0) cuMemsetD8(next, 0, copy - Base());
    void* p = reinterpret_cast<void*>(this->Base());
    (void)p;
  }
 private:
  Range range_;
};
static CUdeviceptr base_of(const Pool& pool) { return pool.Base(); }
CUresult clear(const Pool& pool, Pool* other, std::size_t off) {
  CUdeviceptr (*get)(const Pool&) = base_of;
  return cuMemsetD8(base_of(pool) + off, 0, other->Base() - pool.Base());
}
