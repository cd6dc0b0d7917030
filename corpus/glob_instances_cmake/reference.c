#include <math.h>

#include "values.h"

float gi_input(int row, int col) { return (float)((row * 5 + col * 3) % 11 - 5) * 0.25f; }

int gi_masked(int row, int col) { return col > row + 3; }

void gi_softmax_reference(int row, double* out) {
  double top = -HUGE_VAL, total = 0.0;
  for (int c = 0; c < GI_COLS; ++c)
    if (!gi_masked(row, c) && gi_input(row, c) > top) top = gi_input(row, c);
  for (int c = 0; c < GI_COLS; ++c) {
    out[c] = gi_masked(row, c) ? 0.0 : exp(gi_input(row, c) - top);
    total += out[c];
  }
  for (int c = 0; c < GI_COLS; ++c) out[c] /= total;
}

unsigned long long gi_mix(unsigned long long h, long long v) {
  h ^= (unsigned long long)v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}
