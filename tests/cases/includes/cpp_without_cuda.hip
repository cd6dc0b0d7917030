// hipify-py-flags: --path plain.cpp
#include <vector>

int add(int a, int b) { return a + b; }
