"""One CUDA build per program (rewrite/build_choice.py, FileScan.build_limit, ProjectFacts.build_limit).

A file's version and architecture conditions are decided for the newest build under which none of its branches
that HIP would not take as written uses what HIP lacks. Files compiled together are decided for the oldest of their
builds: the program is compiled by one toolkit, so a header taking its CUDA 9 branch while another keeps its CUDA 8
branch would be two CUDAs in one program. A separate program of the same tree is no evidence. A branch whose warp
shuffles are the ``*_sync`` forms is no reason for a newer build where the branch it replaces has the plain ones.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify.knowledge.table import table_for
from hipify.options import Options
from hipify.project.scan import scan_text
from hipify.translation.api import translate_project

ALLOC = """\
#pragma once
#include <cuda_runtime.h>
inline cudaError_t grab(void** p, size_t n, cudaStream_t s) {
#if CUDART_VERSION >= 11020
  return cudaMallocAsync(p, n, s);
#else
  return cudaMalloc(p, n);
#endif
}
"""
PTX_LOAD = """\
#pragma once
__device__ inline int load_ro(const int* p) {
#if __CUDACC_VER_MAJOR__ >= 9
  int v;
  asm volatile("ld.global.nc.s32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
#else
  return __ldg(p);
#endif
}
"""
SHUFFLE = """\
#pragma once
__device__ inline int warp_sum(int v) {
#if CUDA_VERSION >= 9000
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
#else
  for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);
#endif
  return v;
}
"""
SHUFFLE_BY_MACRO = """\
#pragma once
#if CUDART_VERSION >= 9000
#define __shfl_up(v, d) __shfl_up_sync(0xffffffff, v, d)
#endif
__device__ inline int scan_step(int v, int d) { return v + __shfl_up(v, d); }
"""
MAIN = '#include "alloc.cuh"\n#include "load.cuh"\n__global__ void k(const int* p, int* o) { *o = load_ro(p); }\n'
ALONE = '#include "alloc.cuh"\nint main() { void* p; return grab(&p, 4, 0); }\n'


def _write(tmp_path: Path, files: dict[str, str]) -> dict[str, str]:
    texts = {}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
        texts[str(tmp_path / name)] = text
    return texts


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_headers_of_one_program_are_decided_for_one_build(tmp_path: Path, engine: str) -> None:
    texts = _write(tmp_path, {"alloc.cuh": ALLOC, "load.cuh": PTX_LOAD, "main.cu": MAIN})
    results = translate_project(texts, Options(engine=engine)).results
    alloc, load = results[str(tmp_path / "alloc.cuh")], results[str(tmp_path / "load.cuh")]
    assert "#if 0" in load.text and "asm volatile" in load.text  # the PTX branch is not taken
    # Alone, the allocation header would take its CUDA 11.2 branch; in this program it is read as CUDA 8 reads it.
    assert "#if 0" in alloc.text and "hipMalloc(p, n)" in alloc.text
    notes = [d for d in alloc.diagnostics if d.code == "HPY036"]
    assert len(notes) == 1 and "load.cuh needs it" in notes[0].message and "alone" in notes[0].message
    assert "CUDA 8.0" in notes[0].message


def test_another_program_of_the_tree_is_no_evidence(tmp_path: Path) -> None:
    texts = _write(
        tmp_path,
        {"a/alloc.cuh": ALLOC, "a/main.cu": ALONE, "b/load.cuh": PTX_LOAD, "b/main.cu": '#include "load.cuh"\n'},
    )
    results = translate_project(texts, Options(engine="regex")).results
    alloc = results[str(tmp_path / "a/alloc.cuh")]
    assert "#if 1" in alloc.text and "hipMallocAsync" in alloc.text
    assert not [d for d in alloc.diagnostics if d.code == "HPY036"]


@pytest.mark.parametrize("text", [SHUFFLE, SHUFFLE_BY_MACRO], ids=["branch", "macro"])
def test_sync_shuffles_are_no_reason_for_a_newer_build(tmp_path: Path, text: str) -> None:
    texts = _write(tmp_path, {"warp.cuh": text, "main.cu": '#include "warp.cuh"\n'})
    out = translate_project(texts, Options(engine="regex")).results[str(tmp_path / "warp.cuh")].text
    assert "#if 0" in out  # the plain shuffles, as HIP compiles them without a mask check


def test_sync_shuffles_without_a_plain_branch_are_taken(tmp_path: Path) -> None:
    only_sync = SHUFFLE.replace("__shfl_down(v, o)", "v += 0")
    texts = _write(tmp_path, {"warp.cuh": only_sync, "main.cu": '#include "warp.cuh"\n'})
    out = translate_project(texts, Options(engine="regex")).results[str(tmp_path / "warp.cuh")].text
    assert "#if 1" in out


def test_scan_records_the_newest_build_the_text_allows() -> None:
    table = table_for(Options())

    def newest(name: str, text: str) -> tuple[int, int] | None:
        conditions = scan_text(name, text, table, Options()).build_conditions
        return conditions.newest().version if conditions is not None else None

    assert newest("load.cuh", PTX_LOAD) < (9, 0)  # type: ignore[operator]
    assert newest("alloc.cuh", ALLOC) >= (11, 2)  # type: ignore[operator]
    assert newest("plain.cu", "int main() { return 0; }\n") is None


GUARD = """\
#pragma once
#if __CUDA_ARCH__ >= 800
#define OWN_ASYNC_COPY
#endif
"""
GUARDED = """\
#pragma once
#include "tier.cuh"
__device__ inline void copy(int* d, const int* s) {
#ifdef OWN_ASYNC_COPY
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(d), "l"(s));
#else
  *d = *s;
#endif
}
"""
ARCH_USER = """\
#pragma once
__device__ inline int lanes() {
#if __CUDA_ARCH__ >= 800
  return 2;
#else
  return 1;
#endif
}
"""


def test_a_macro_guarding_what_hip_lacks_in_another_file_limits_the_program(tmp_path: Path) -> None:
    """tier.cuh's architecture test defines a macro that copy.cuh's inline PTX hides behind: the program is
    decided for an architecture that leaves it undefined, and arch.cuh, which alone would take its sm_80 branch,
    is decided for the same architecture (no file disagrees)."""
    texts = _write(
        tmp_path,
        {
            "tier.cuh": GUARD,
            "copy.cuh": GUARDED,
            "arch.cuh": ARCH_USER,
            "main.cu": '#include "copy.cuh"\n#include "arch.cuh"\n__global__ void k(int* d) { d[0] = lanes(); }\n',
        },
    )
    results = translate_project(texts, Options(engine="regex")).results
    tier, arch = results[str(tmp_path / "tier.cuh")], results[str(tmp_path / "arch.cuh")]
    assert "#if 0" in tier.text
    assert not [d for d in tier.diagnostics if d.code == "HPY036" and d.severity.name == "WARNING"]
    assert "#if 0" in arch.text and [d for d in arch.diagnostics if d.code == "HPY036"]


POLYFILL = """\
#pragma once
#include <cuda_bf16.h>
#if (CUDART_VERSION < 12020) && (defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 800))
__device__ inline float2 widen2(const __nv_bfloat162 a) {
  return make_float2(__internal_bfloat162float(((__nv_bfloat162_raw)a).x), 0.0f);
}
#endif
"""


def test_a_file_no_program_build_suits_is_decided_alone_and_says_so(tmp_path: Path) -> None:
    """The program's build (older than CUDA 9 for sm_60, for load.cuh's and arch.cuh's PTX) would compile this header's polyfill for old
    toolkits and old GPUs, which calls a CUDA internal HIP lacks; its own newest build skips it. No build suits
    both: the header is decided alone, and a warning says the program disagrees with itself there."""
    texts = _write(
        tmp_path,
        {
            "poly.cuh": POLYFILL,
            "load.cuh": PTX_LOAD,
            "arch.cuh": PTX_LOAD.replace("load_ro", "load_arch").replace(
                "__CUDACC_VER_MAJOR__ >= 9", "__CUDA_ARCH__ >= 700"
            ),
            "main.cu": '#include "poly.cuh"\n#include "load.cuh"\n#include "arch.cuh"\n',
        },
    )
    poly = translate_project(texts, Options(engine="regex")).results[str(tmp_path / "poly.cuh")]
    assert "#if 0" in poly.text
    warnings = [d for d in poly.diagnostics if d.code == "HPY036"]
    assert len(warnings) == 1 and warnings[0].severity.name == "WARNING" and "not as CUDA 8.0" in warnings[0].message
