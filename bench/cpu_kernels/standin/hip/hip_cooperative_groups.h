// Stand-in (bench/cpu_kernels.py's second pass only): HIP-CPU has no cooperative groups; code that uses them
// still fails, code that only includes the header parses.
#pragma once
