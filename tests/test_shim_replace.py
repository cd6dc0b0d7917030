"""``shim --replace``: the generated header written over a project's own vendor header, its own lines kept; the
library headers included under the project's own conditions; findings about names the project defines itself,
vendor headers of other platforms, launches in host functions and folder names."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify.cli.cli import main
from hipify.knowledge.table import load_table
from hipify.shim import plan_shim, render_header
from hipify.shim.conditions import ALWAYS, any_of, include_conditions
from hipify.shim.plan import is_vendor_header
from hipify.shim.render import BEGIN_AFTER, BEGIN_BEFORE, END
from hipify.shim.replace import read_project_header

VENDOR_HIP = """\
#pragma once

#define HIP_DISABLE_WARP_SYNC_BUILTINS 1
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaFreeHost hipHostFree
#define cudaStream_t hipStream_t
#define MY_CHECK(x) do { if ((x) != hipSuccess) return; } while (0)

#if defined(__gfx90a__)
#define MY_CDNA2
#endif

#if HIP_VERSION >= 60000000
#define cudaMemcpy hipMemcpy
#endif

typedef __hip_bfloat16 nv_bfloat16;
typedef int my_int4 __attribute__((ext_vector_type(4)));

static __device__ __forceinline__ int my_helper(int a) {
    return a + 1;
}
"""

COMMON = """\
#pragma once
#if defined(USE_HIP)
#include "vendors/hip.h"
#elif defined(USE_OTHER)
#include "vendors/other.h"
#else
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#ifdef USE_NCCL
#include <nccl.h>
#endif
#endif
"""

OTHER = """\
#pragma once
#define cudaMalloc otherMalloc
#define cudaFree otherFree
#define cudaStream_t otherStream_t
#define cudaGraphExec_t otherGraphExec_t
"""

KERNEL = """\
#include "common.cuh"
#ifdef USE_CUB
#include <cub/cub.cuh>
#endif

#if defined(USE_HIP)
static __device__ __forceinline__ unsigned int __vcmpne4(unsigned int a, unsigned int b) { return a != b; }
#endif

__global__ void k(unsigned int* p, nv_bfloat16* q) { p[0] = __vcmpne4(p[0], p[1]); }

void run(unsigned int* p, nv_bfloat16* q, cudaStream_t s) {
  cudaMalloc(&p, 4);
  k<<<1, 32, 0, s>>>(p, q);
  cudaFree(p);
}
"""


def _project(root: Path) -> Path:
    src = root / "src"
    (src / "vendors").mkdir(parents=True)
    (src / "vendors" / "hip.h").write_text(VENDOR_HIP)
    (src / "vendors" / "other.h").write_text(OTHER)
    (src / "common.cuh").write_text(COMMON)
    (src / "k.cu").write_text(KERNEL)
    return src


def test_the_project_header_keeps_its_own_lines_and_drops_the_cuda_ones() -> None:
    table = load_table()
    covered = {"cudaMalloc", "cudaFree", "cudaFreeHost", "cudaStream_t", "cudaMemcpy", "nv_bfloat16"}
    lines = read_project_header(VENDOR_HIP, table.by_name, covered, {"hip/hip_runtime.h", "hip/hip_fp16.h"})
    assert lines.before == "#define HIP_DISABLE_WARP_SYNC_BUILTINS 1"
    assert "MY_CHECK" in lines.after and "#define MY_CDNA2" in lines.after and "my_int4" in lines.after
    assert "my_helper" in lines.after and "return a + 1;" in lines.after
    for cuda in ("cudaMalloc", "cudaFreeHost", "nv_bfloat16", "cudaMemcpy", "#include", "#pragma once"):
        assert cuda not in lines.after, cuda
    assert "HIP_VERSION" not in lines.after  # a conditional left with nothing of the project's is dropped
    assert {name for name, _ in lines.cuda_defined} >= {"cudaMalloc", "cudaFreeHost", "nv_bfloat16"}


def test_a_cuda_name_the_generated_header_does_not_cover_stays_the_projects() -> None:
    table = load_table()
    text = "#include <hip/hip_runtime.h>\nstatic __device__ int __vsub4(int a, int b) { return a - b; }\n"
    lines = read_project_header(text, table.by_name, set(), {"hip/hip_runtime.h"})
    assert "__vsub4" in lines.after and lines.cuda_kept == ("__vsub4",)


def test_include_conditions_are_the_projects_options_only() -> None:
    table = load_table()
    found = dict(include_conditions(COMMON + KERNEL, table.by_name))
    assert "defined(USE_NCCL)" in found["nccl.h"] and "!(defined(USE_HIP))" in found["nccl.h"]
    assert "defined(USE_CUB)" in found["cub/cub.cuh"]
    guarded = "#ifndef MY_H\n#define MY_H\n#if CUDART_VERSION >= 11000\n#include <cuda_fp16.h>\n#endif\n#endif\n"
    assert dict(include_conditions(guarded, table.by_name))["cuda_fp16.h"] == ALWAYS
    assert any_of(["(defined(A))", ALWAYS]) == ALWAYS
    assert any_of(["(defined(A))", "(defined(B))"]) == "((defined(A))) || ((defined(B)))"


def test_vendor_headers_are_no_uses(tmp_path: Path) -> None:
    table = load_table()
    assert is_vendor_header(OTHER, table.by_name) and is_vendor_header(VENDOR_HIP, table.by_name)
    assert not is_vendor_header(KERNEL, table.by_name)
    src = _project(tmp_path)
    texts = {str(p): p.read_text() for p in src.rglob("*") if p.is_file()}
    plan = plan_shim(texts)
    names = {d.name for d in plan.definitions}
    assert "cudaGraphExec_t" not in names  # only vendors/other.h names it
    assert {"cudaMalloc", "cudaFree", "cudaStream_t"} <= names
    assert not [d for d in plan.findings if "vendors" in d.path]


def test_a_name_the_project_defines_itself_is_never_needed(tmp_path: Path) -> None:
    src = _project(tmp_path)
    texts = {str(p): p.read_text() for p in src.rglob("*") if p.is_file()}
    plan = plan_shim(texts)
    assert not [d for d in plan.findings if "__vcmpne4" in d.message and d.severity.name in ("WARNING", "ERROR")]


def test_library_headers_are_included_under_the_projects_conditions(tmp_path: Path) -> None:
    src = _project(tmp_path)
    texts = {str(p): p.read_text() for p in src.rglob("*") if p.is_file()}
    header = render_header(plan_shim(texts), "hip_shim.h")
    assert "#if (defined(USE_CUB))\n#include <hipcub/hipcub.hpp>" in header
    nccl = header[: header.index("rccl")].rsplit("#if ", 1)[1]
    assert "defined(USE_NCCL)" in nccl


def test_replace_writes_over_the_vendor_header_and_reads_its_own_lines_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["shim", "src", "--replace", "src/vendors/hip.h", "--rocm", "7.2"]) == 0
    err = capsys.readouterr().err
    assert "cudaFreeHost" not in err or "HPY140" in err
    written = (src / "vendors" / "hip.h").read_text()
    assert BEGIN_BEFORE in written and BEGIN_AFTER in written and END in written
    assert written.index("HIP_DISABLE_WARP_SYNC_BUILTINS 1") < written.index("#include <hip/hip_runtime.h>")
    assert "MY_CHECK" in written and "my_helper" in written and "#define cudaMalloc hipMalloc" in written
    assert main(["shim", "src", "--replace", "src/vendors/hip.h", "--rocm", "7.2"]) == 0
    assert (src / "vendors" / "hip.h").read_text() == written  # its own lines read back from the marks
    assert main(["shim", "src", "--replace", "src/vendors/hip.h", "--rocm", "7.2", "--check"]) == 0


def test_check_names_a_cuda_name_the_project_defines_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _project(tmp_path)
    (src / "vendors" / "hip.h").write_text(VENDOR_HIP.replace("#define cudaFree hipFree", "#define cudaFree myFree"))
    monkeypatch.chdir(tmp_path)
    assert main(["shim", "src", "--replace", "src/vendors/hip.h", "--check"]) == 1
    err = capsys.readouterr().err
    assert "cudaFree: the project's header defines it as myFree, the generated header as hipFree" in err
    assert "HPY140" in err


def test_a_launch_in_a_host_function_after_per_architecture_branches_is_no_device_launch(tmp_path: Path) -> None:
    kernel = """\
template <int N>
__global__ void kern(float* x) {
#if defined(A)
    if constexpr (N > 1) {x[0] = 1;} else {
#elif defined(B)
    if constexpr (N > 2) {x[0] = 2;} else {
#else
    if constexpr (N > 3) {x[0] = 3;} else {
#endif
    x[1] = 0;
    }
}
static void host_launch(float* x) { kern<1><<<1, 64>>>(x); }
__global__ void parent(float* x) { kern<1><<<1, 64>>>(x); }
"""
    path = tmp_path / "k.cu"
    path.write_text(kernel)
    launches = [d for d in plan_shim({str(path): kernel}).findings if d.code == "HPY124"]
    assert [d.line for d in launches] == [14]


def test_a_folder_named_rocm_is_still_the_projects(tmp_path: Path) -> None:
    root = tmp_path / "rocm-port"
    (root / "include").mkdir(parents=True)
    (root / "include" / "defs.h").write_text("#ifdef __CUDACC__\n#define HD __host__ __device__\n#endif\n")
    (root / "src").mkdir()
    (root / "src" / "k.cu").write_text("#include <defs.h>\n__global__ void k() {}\n")
    from hipify.options import Options

    texts = {str(root / "src" / "k.cu"): (root / "src" / "k.cu").read_text()}
    plan = plan_shim(texts, Options(include_dirs=(str(root / "include"),)))
    assert "__CUDACC__" in {d.name for d in plan.definitions}


def test_a_source_edit_no_header_can_make_is_named_with_the_edit(tmp_path: Path) -> None:
    code = "#include <cuda_runtime.h>\n__global__ void k() {}\nint main() {\n  dim3 g = make_uint3(1, 2, 3);\n"
    code += "  k<<<g, 1>>>();\n  return 0;\n}\n"
    path = tmp_path / "d.cu"
    path.write_text(code)
    found = [d for d in plan_shim({str(path): code}).findings if d.code == "HPY122"]
    assert [(d.line, d.col) for d in found] == [(4, 12)]
    assert "`make_uint3` -> `dim3`" in found[0].message


def test_a_name_hip_spells_alike_stays_the_projects_unless_the_header_defines_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = _project(tmp_path)
    own = "#define __trap() do { abort(); __builtin_unreachable(); } while (0)\n"
    (src / "vendors" / "hip.h").write_text(VENDOR_HIP + own)
    monkeypatch.chdir(tmp_path)
    assert main(["shim", "src", "--replace", "src/vendors/hip.h", "-q"]) == 0
    written = (src / "vendors" / "hip.h").read_text()
    assert own.strip() in written.split(BEGIN_AFTER, 1)[1]


def test_a_macro_the_file_defines_stands_for_its_own_condition() -> None:
    table = load_table()
    text = (
        "#if !defined(USE_HIP) && CUDART_VERSION >= 11070\n#define USE_CUB\n#endif\n"
        "#ifdef USE_CUB\n#include <cub/cub.cuh>\n#endif\n"
    )
    assert dict(include_conditions(text, table.by_name))["cub/cub.cuh"] == "((!defined(USE_HIP)))"


def test_platform_options_decide_only_the_chain_choosing_the_vendor_header() -> None:
    """Around the project's vendor header, the option is set where the header is read (it stands for the CUDA
    branch's includes); elsewhere a test of it stays a condition: the project's HIP build includes HIP's
    cooperative groups itself, and defines no USE_CUB, so neither stand-in is read there."""
    table = load_table()
    options = frozenset(("USE_HIP", "USE_OTHER"))
    found = dict(include_conditions(COMMON, table.by_name, options))
    assert found["cuda_runtime.h"] == ALWAYS and found["cuda_bf16.h"] == ALWAYS
    softmax = (
        "#ifdef USE_HIP\n#include <hip/hip_cooperative_groups.h>\n#else\n#include <cooperative_groups.h>\n#endif\n"
        "#if !defined(USE_HIP) && !defined(USE_OTHER) && CUDART_VERSION >= 11070\n#define USE_CUB\n#endif\n"
        "#ifdef USE_CUB\n#include <cub/cub.cuh>\n#endif\n"
    )
    found = dict(include_conditions(softmax, table.by_name, options))
    assert found["cooperative_groups.h"] == "(!(defined(USE_HIP)))"
    assert found["cub/cub.cuh"] == "((!defined(USE_HIP) && !defined(USE_OTHER)))"


def test_a_library_the_hip_build_does_not_reach_is_not_included(tmp_path: Path) -> None:
    src = _project(tmp_path)
    (src / "scan.cu").write_text(
        '#include "common.cuh"\n#if !defined(USE_HIP) && CUDART_VERSION >= 11070\n#define USE_SCAN_CUB\n#endif\n'
        "#ifdef USE_SCAN_CUB\n#include <cub/cub.cuh>\nusing namespace cub;\n#endif\n"
        "__global__ void k(int* p) { p[0] = 1; }\n"
    )
    texts = {str(p): p.read_text() for p in src.rglob("*") if p.is_file()}
    header = render_header(plan_shim(texts), "hip.h")
    cub = header.index("#include <hipcub/hipcub.hpp>")
    assert "!defined(USE_HIP)" in header[header.rindex("#if", 0, cub) : cub]
    lines = header.splitlines()
    bf16 = next(i for i, line in enumerate(lines) if line.startswith("#include <hip/hip_bf16.h>"))
    assert not lines[bf16 - 1].startswith("#if")  # the vendor chain's CUDA branch: stood for in the HIP build
