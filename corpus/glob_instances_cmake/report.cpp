#include <cstdio>

#include "values.h"

int gi_report(const char* name, int pass, unsigned long long checksum, const char* detail) {
  static_assert(sizeof(gi_half) == 2, "a half is two bytes on every side");
  if (pass) {
    std::printf("%s: PASS checksum=%016llx\n", name, checksum);
    return 0;
  }
  std::printf("%s: FAIL checksum=%016llx (%s)\n", name, checksum, detail);
  return 1;
}
