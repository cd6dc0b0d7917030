"""CUB's warp-transposing block loads and stores on blocks that are not whole AMD wavefronts (HPY029)."""

from __future__ import annotations

import pytest
from conftest import RocmCompiler

from hipify import Options, translate

KERNEL = """\
#include <cub/cub.cuh>
template <typename T, int BLOCK_SIZE, int NUM_PER_TH, int DATA_TYPE, cub::BlockLoadAlgorithm ALGO>
__global__ void quantize(T* A, unsigned char* out, int n) {
  constexpr int THREADS = 32;
  typedef cub::BlockLoad<T, THREADS, NUM_PER_TH, cub::BLOCK_LOAD_WARP_TRANSPOSE> LoadT;
  typedef cub::BlockStore<unsigned char, THREADS, NUM_PER_TH * ((DATA_TYPE > 0) ? 2 : 1),
                          cub::BLOCK_STORE_WARP_TRANSPOSE> StoreChar;
  typedef cub::BlockLoad<float, BLOCK_SIZE / NUM_PER_TH, NUM_PER_TH, cub::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED> LoadF;
  typedef cub::BlockLoad<float, 16, 2, cub::BLOCK_LOAD_WARP_TRANSPOSE, 4> Load2D;
  typedef cub::BlockLoad<float, THREADS, 2, ALGO> Chosen;
  __shared__ typename LoadT::TempStorage loadt;
  __shared__ typename StoreChar::TempStorage storec;
  T vals[NUM_PER_TH];
  unsigned char q[NUM_PER_TH * ((DATA_TYPE > 0) ? 2 : 1)] = {};
  LoadT(loadt).Load(A, vals, n, (T)0);
  for (int i = 0; i < NUM_PER_TH; ++i) q[i] = (unsigned char)vals[i];
  StoreChar(storec).Store(out, q, n);
}
template __global__ void quantize<float, 64, 2, 1, cub::BLOCK_LOAD_DIRECT>(float*, unsigned char*, int);
"""


def _translate(text: str, engine: str) -> str:
    return translate(text, "k.cu", Options(engine=engine, use_cache=False)).text


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_the_algorithm_is_chosen_by_the_blocks_thread_count(engine: str) -> None:
    text = _translate(KERNEL, engine)
    load = "((THREADS) % 64 == 0 ? hipcub::BLOCK_LOAD_WARP_TRANSPOSE : hipcub::BLOCK_LOAD_TRANSPOSE)"
    assert f"hipcub::BlockLoad<T, THREADS, NUM_PER_TH, {load}> LoadT;" in text
    # an argument holding '>' inside parentheses is one argument
    store = "((THREADS) % 64 == 0 ? hipcub::BLOCK_STORE_WARP_TRANSPOSE : hipcub::BLOCK_STORE_TRANSPOSE)"
    assert f"NUM_PER_TH * ((DATA_TYPE > 0) ? 2 : 1),\n                          {store}> StoreChar;" in text
    assert (
        "((BLOCK_SIZE / NUM_PER_TH) % 64 == 0 ? hipcub::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED : "
        "hipcub::BLOCK_LOAD_TRANSPOSE)> LoadF;" in text
    )
    # BLOCK_DIM_Y counts: 16 x 4 threads
    assert "((16 * 4) % 64 == 0 ? hipcub::BLOCK_LOAD_WARP_TRANSPOSE : hipcub::BLOCK_LOAD_TRANSPOSE), 4> Load2D;" in text
    # an algorithm passed through a template parameter is not at hand
    assert "hipcub::BlockLoad<float, THREADS, 2, ALGO> Chosen;" in text
    assert _translate(text, engine) == text


def test_a_warp_transpose_outside_a_block_template_is_left_alone() -> None:
    text = _translate("#include <cub/cub.cuh>\nauto a = cub::BLOCK_LOAD_WARP_TRANSPOSE;\n", "regex")
    assert "auto a = hipcub::BLOCK_LOAD_WARP_TRANSPOSE;" in text


@pytest.mark.hipcc
def test_a_32_thread_block_compiles_for_wave64_and_wave32(rocm: RocmCompiler) -> None:
    path = rocm.work / "k.hip"
    path.write_text(_translate(KERNEL, "regex"))
    proc = rocm.compile(path, archs=("gfx90a", "gfx1030"))
    assert proc.returncode == 0, proc.stderr[-3000:]
