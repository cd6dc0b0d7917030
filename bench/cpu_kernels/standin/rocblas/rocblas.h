// Stand-in (bench/cpu_kernels.py's second pass only): rocBLAS has no CPU form. Empty: a use of it still fails.
#pragma once
