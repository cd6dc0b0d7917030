// Feature switches a library derives from version tests, and the code behind them.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

// Hardware decompression arrived with CUDA 12.8 (and only on Linux): the library switches it on from the toolkit
// version, then derives a second switch from the first.
#if CUDART_VERSION >= 12080 && defined(__linux__)
#define FEAT_HW_DECOMPRESS 1
#endif

#if defined(FEAT_HW_DECOMPRESS) && CUDART_VERSION >= 12090
#define FEAT_HW_DECOMPRESS_ALGOS 1
#endif

// A table of driver entry points, as a library that loads the driver at run time keeps one: the decompression
// members exist only behind the switches.
struct DriverTable {
  using MemGetInfo = CUresult(size_t *free_bytes, size_t *total_bytes);
  MemGetInfo *mem_get_info{nullptr};
#if defined(FEAT_HW_DECOMPRESS)
  using BatchDecompress = CUresult(CUmemDecompressParams *params, size_t count, unsigned int flags,
                                   size_t *error_index, CUstream stream);
  BatchDecompress *batch_decompress{nullptr};
#endif
#ifdef FEAT_HW_DECOMPRESS_ALGOS
  CUmemDecompressAlgorithm preferred{CU_MEM_DECOMPRESS_ALGORITHM_DEFLATE};
#endif
  int generation{1};
};

// How many optional entry points the table holds (a value test of the switch).
inline int optional_entries(const DriverTable &table) {
#if FEAT_HW_DECOMPRESS
  return table.batch_decompress != nullptr ? 1 : 0;
#else
  (void)table;
  return 0;
#endif
}
