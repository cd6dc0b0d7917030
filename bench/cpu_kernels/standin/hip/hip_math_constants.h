// Stand-in (bench/cpu_kernels.py's second pass only): HIP-CPU lacks HIP's math-constants header. Empty: code
// that includes it without using its constants parses; a use of one still fails.
#pragma once
