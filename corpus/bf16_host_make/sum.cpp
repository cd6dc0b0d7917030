// No rule of the Makefile names this file: make's built-in rule compiles it with $(CXX) $(CPPFLAGS).
#include "bf16_host.h"

double sum_bf16(const __nv_bfloat16* values, std::size_t n) {
  double total = 0.0;
  for (std::size_t i = 0; i < n; ++i) total += static_cast<double>(__bfloat162float(values[i]));
  return total;
}
