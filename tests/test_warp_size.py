"""A warp size of 32 written as a constant: changed to 64 where it only sizes hipCUB/rocPRIM block primitives
(HPY020), reported at its definition where it drives lanes (HPY121); both engines. Marked ``hipcc``: the
translation of a block primitive sized by the constant compiles for wave64 and wave32 GPUs, where the
constant left at 32 is refused by rocPRIM."""

from __future__ import annotations

import pytest
from conftest import RocmCompiler

from hipify import Options, translate

ENGINES = ["regex", "clang"]

BLOCK_ONLY = """\
#include <cub/cub.cuh>
#define WARP_SIZE 32
__global__ void __launch_bounds__(WARP_SIZE) load_first(const float* in, float* out) {
  typedef cub::BlockLoad<float, WARP_SIZE, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
  typedef cub::BlockReduce<float, 2 * WARP_SIZE> Reduce;
  __shared__ typename Load::TempStorage load_storage;
  float items[4];
  Load(load_storage).Load(in + blockIdx.x * 4 * WARP_SIZE, items);
  out[blockIdx.x * WARP_SIZE + threadIdx.x] = items[0] + items[3];
  (void)sizeof(typename Reduce::TempStorage);
}
void run(const float* in, float* out, int blocks) { load_first<<<blocks, WARP_SIZE>>>(in, out); }
"""

LANES = """\
constexpr int kWarpSize = 32;
__global__ void warp_sums(float* x) {
  float v = x[threadIdx.x];
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % kWarpSize == 0) x[threadIdx.x / kWarpSize] = v;
}
"""

MIXED = """\
#include <cub/cub.cuh>
#define WARPSIZE 32
__global__ void k(float* x) {
  typedef cub::BlockReduce<float, WARPSIZE> Reduce;
  __shared__ typename Reduce::TempStorage storage;
  float total = Reduce(storage).Sum(x[threadIdx.x]);
  if (threadIdx.x % WARPSIZE == 0) x[0] = total;
}
"""


def _run(text: str, engine: str) -> tuple[str, list[str]]:
    result = translate(text, "k.cu", Options(engine=engine, use_cache=False))
    return result.text, [d.code for d in result.diagnostics]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_constant_only_sizing_block_primitives_becomes_a_multiple_of_every_wavefront(engine: str) -> None:
    text, codes = _run(BLOCK_ONLY, engine)
    assert "#define WARP_SIZE 64\n" in text and "HPY121" not in codes
    # the uses stay as written; the warp-transposing load also chooses its algorithm by the count (HPY029)
    choice = "((WARP_SIZE) % 64 == 0 ? hipcub::BLOCK_LOAD_WARP_TRANSPOSE : hipcub::BLOCK_LOAD_TRANSPOSE)"
    assert choice in text and text.count("WARP_SIZE") == BLOCK_ONLY.count("WARP_SIZE") + 1
    again, again_codes = _run(text, engine)
    assert again == text and "HPY121" not in again_codes


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("source", [LANES, MIXED], ids=["lanes", "lanes-and-block"])
def test_a_constant_driving_lanes_is_reported_at_its_definition_and_kept(engine: str, source: str) -> None:
    result = translate(source, "k.cu", Options(engine=engine, use_cache=False))
    findings = [d for d in result.diagnostics if d.code == "HPY121"]
    assert len(findings) == 1 and "warpSize" in findings[0].message
    name = "kWarpSize" if source is LANES else "WARPSIZE"
    assert findings[0].subject == name and findings[0].line in (1, 2)
    assert f"{name} = 32;" in result.text or f"#define {name} 32" in result.text


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "source",
    [
        # another value, another name, a constant the file never uses, a function-like macro
        "#define WARP_SIZE 64\n__global__ void k(int* x) { x[threadIdx.x % WARP_SIZE] = 0; }\n",
        "#define TILE_SIZE 32\n__global__ void k(int* x) { x[threadIdx.x % TILE_SIZE] = 0; }\n",
        "#define WARP_SIZE 32\n",
        "#define WARP_SIZE(x) 32\n__global__ void k(int* x) { x[threadIdx.x % WARP_SIZE(0)] = 0; }\n",
        # defined for each platform: the project's own choice
        "#ifdef __HIP_PLATFORM_AMD__\n#define WARP_SIZE 64\n#else\n#define WARP_SIZE 32\n#endif\n"
        "__global__ void k(int* x) { x[threadIdx.x % WARP_SIZE] = 0; }\n",
    ],
    ids=["64", "other-name", "unused", "function-like", "per-platform"],
)
def test_other_constants_are_left_alone(engine: str, source: str) -> None:
    text, codes = _run(source, engine)
    assert "HPY121" not in codes and "HPY020" not in codes
    assert source.replace("\n", "") in text.replace("\n", "") or text.endswith(source)


@pytest.mark.hipcc
@pytest.mark.parametrize("engine", ENGINES)
def test_the_block_primitive_compiles_for_wave64_and_wave32_only_after_the_change(
    rocm: RocmCompiler, engine: str
) -> None:
    text, _ = _run(BLOCK_ONLY, engine)
    (rocm.work / "fixed.cu").write_text(text)
    # as written: the constant at 32 and the warp transpose it sizes (HPY029's choice undone)
    choice = "((WARP_SIZE) % 64 == 0 ? hipcub::BLOCK_LOAD_WARP_TRANSPOSE : hipcub::BLOCK_LOAD_TRANSPOSE)"
    as_written = text.replace("#define WARP_SIZE 64", "#define WARP_SIZE 32").replace(
        choice, "hipcub::BLOCK_LOAD_WARP_TRANSPOSE"
    )
    (rocm.work / "as_written.cu").write_text(as_written)
    fixed = rocm.compile(rocm.work / "fixed.cu", ["gfx90a", "gfx1030"])
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    as_written = rocm.compile(rocm.work / "as_written.cu", ["gfx90a"])
    assert as_written.returncode != 0
    assert "multiple of hardware warpsize" in as_written.stdout + as_written.stderr
