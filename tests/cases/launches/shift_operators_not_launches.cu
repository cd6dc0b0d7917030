// hipify-py-flags: --hip-kernel-execution-syntax
#include <vector>
#include <map>

std::vector<std::vector<std::vector<int>>> deep;
std::map<int, std::vector<std::pair<int, int>>> m;

int shifts(int a) { return (a << 2) >> 1; }
