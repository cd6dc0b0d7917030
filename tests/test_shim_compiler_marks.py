"""nvcc's marks (__NVCC__, __CUDACC__, the version and architecture numbers) where a project tells hipcc apart from
nvcc itself: the header leaves a mark undefined where one of the project's conditions testing both compilers reads
otherwise with it (an #error for nvcc as HIP's back end, a CUDA branch before the project's HIP one), keeps it where
none does, and names the project's other tests of a mark it leaves undefined."""

from __future__ import annotations

from pathlib import Path

import pytest
from shim_builds import hipcc_errors, release_workdirs, write_files

from hipify.model import Severity
from hipify.options import Options
from hipify.shim import plan_shim, render_header, render_include_dir
from hipify.shim.compiler_marks import BRANCH_CHANGED, TOLD_APART
from hipify.shim.plan import ShimPlan

BACK_END_ERROR = """\
#pragma once
#if defined(__NVCC__) && defined(__HIPCC__)
#error "nvcc as HIP's back end is not supported"
#endif
"""
CHAIN = """\
#pragma once
#if defined(__NVCC__)
#define LIB_COMPILER 1
#elif defined(__HIPCC__)
#define LIB_COMPILER 2
#else
#define LIB_COMPILER 0
#endif
"""
EITHER = """\
#pragma once
#if defined(__CUDACC__) || defined(__HIPCC__)
#define LIB_HD __host__ __device__
#else
#define LIB_HD
#endif
"""
MAIN = """\
#include <cuda_runtime.h>
#include "compiler.h"
#include "hd.h"
static_assert(LIB_COMPILER == 2, "hipcc takes the project's HIP branch");
LIB_HD inline int twice(int v) { return 2 * v; }
__global__ void k(int* p) { p[threadIdx.x] = twice(threadIdx.x); }
int main() {
  int* p = nullptr;
  cudaMalloc(&p, 64 * sizeof(int));
  k<<<1, 64>>>(p);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
"""


def _write(root: Path, files: dict[str, str]) -> dict[str, str]:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (root / name).write_text(text)
    return {str(root / name): text for name, text in files.items()}


def _defined(plan_texts: dict[str, str]) -> tuple[set[str], ShimPlan]:
    plan = plan_shim(plan_texts)
    return {d.name for d in plan.definitions}, plan


def test_a_condition_for_nvcc_as_hips_back_end_leaves_the_mark_undefined(tmp_path: Path) -> None:
    texts = _write(tmp_path, {"compiler.h": BACK_END_ERROR, "main.cu": '#include "compiler.h"\n#ifdef __CUDACC__\n'
                              "__global__ void k() {}\n#endif\nint main() { cudaDeviceSynchronize(); }\n"})  # fmt: skip
    plan = plan_shim(texts)
    names = {d.name for d in plan.definitions}
    assert "__NVCC__" not in names
    assert "__CUDACC__" in names  # tested alone, as the CUDA compiler: hipcc is one here
    assert [name for name, _ in plan.undefined_marks] == ["__NVCC__"]
    notes = [d for d in plan.findings if d.code == TOLD_APART]
    assert [(Path(d.path).name, d.line, d.subject) for d in notes] == [("compiler.h", 2, "__NVCC__")]
    header = render_header(plan, "hip_shim.h")
    assert "#define __NVCC__" not in header
    assert "// __NVCC__ is left undefined: the project tells hipcc apart from nvcc by it (compiler.h:2)" in header
    assert "#define __CUDACC__ __HIPCC__" in header


def test_a_cuda_branch_before_the_projects_hip_branch_leaves_the_mark_undefined(tmp_path: Path) -> None:
    names, _ = _defined(_write(tmp_path, {"compiler.h": CHAIN, "main.cu": '#include "compiler.h"\n'}))
    assert "__NVCC__" not in names


def test_a_condition_that_reads_alike_either_way_keeps_the_mark(tmp_path: Path) -> None:
    names, plan = _defined(_write(tmp_path, {"hd.h": EITHER, "main.cu": '#include "hd.h"\n#ifdef __NVCC__\n#endif\n'}))
    assert {"__CUDACC__", "__NVCC__"} <= names
    assert not plan.undefined_marks


@pytest.mark.parametrize(
    ("condition", "mark"),
    [
        ("#if defined(__CUDACC__) && defined(__HIP__)", "__CUDACC__"),  # a sibling mark, HIP's other macro
        ("#if defined(__HIPCC__) && defined(__CUDACC_VER_MAJOR__)", "__CUDACC_VER_MAJOR__"),  # a version number
        ("#if defined(__CUDA_ARCH__) && defined(__HIP_DEVICE_COMPILE__)", "__CUDA_ARCH__"),  # the device pass
        ("#ifdef __HIPCC__\n#ifdef __NVCC__", "__NVCC__"),  # nested in a branch only HIP's compilers read
        ("#if defined(__NVCC__) && defined(__HIPCC__) && !defined(LIB_ALLOW)", "__NVCC__"),  # the project's option
    ],
)
def test_each_mark_the_header_defines_is_left_undefined_where_the_project_tells_hipcc_apart_by_it(
    tmp_path: Path, condition: str, mark: str
) -> None:
    closing = "#endif\n" * condition.count("#")
    text = f'{condition}\n#error "not this compiler"\n{closing}#ifdef {mark}\n#endif\n'
    names, plan = _defined(_write(tmp_path, {"main.cu": "#include <cuda_runtime.h>\n" + text}))
    assert mark not in names
    assert [name for name, _ in plan.undefined_marks] == [mark]


@pytest.mark.parametrize(
    "condition",
    [
        "#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)",  # both passes read alike
        "#if defined(__CUDACC__) && !defined(__HIP_PLATFORM_AMD__)",  # never hipcc's, either way
        "#ifndef __HIPCC__\n#if defined(__NVCC__) && defined(__HIPCC__)",  # hipcc skips it whatever is defined
        # a host-pass test of either compiler: the mark gives the project's meaning (no branch for HIP alone moves)
        "#if (defined(__CUDACC__) || defined(__HIPCC__)) && !defined(__CUDA_ARCH__)",
    ],
)
def test_a_condition_hipcc_reads_alike_with_and_without_the_mark_keeps_it(tmp_path: Path, condition: str) -> None:
    closing = "#endif\n" * condition.count("#")
    text = f"#include <cuda_runtime.h>\n{condition}\nint x;\n{closing}#ifdef __CUDA_ARCH__\n#endif\n"
    text += "#ifdef __CUDACC__\n#endif\n#ifdef __NVCC__\n#endif\n"
    _, plan = _defined(_write(tmp_path, {"main.cu": text}))
    assert not plan.undefined_marks


def test_the_projects_other_tests_of_a_mark_left_undefined_are_named(tmp_path: Path) -> None:
    """Where the translation reads a test of the mark alone as hipcc's, hipcc now skips the branch: a warning at the
    line, which says what the branch needs."""
    own = "#pragma once\n#ifdef __NVCC__\n#define LIB_FAST 1\n#endif\n"
    _, plan = _defined(_write(tmp_path, {"compiler.h": BACK_END_ERROR, "fast.h": own,
                                         "main.cu": '#include "compiler.h"\n#include "fast.h"\n'}))  # fmt: skip
    warnings = [d for d in plan.findings if d.code == BRANCH_CHANGED]
    assert [(Path(d.path).name, d.line) for d in warnings] == [("fast.h", 2)]
    assert "compiler.h:2" in warnings[0].message and "defined(__HIPCC__)" in warnings[0].message


@pytest.mark.hipcc
def test_a_project_telling_hipcc_apart_compiles_unmodified_on_every_release(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The #error for nvcc as HIP's back end is not hit, the project's HIP branch is taken (a static_assert says so),
    and the __host__ __device__ macro of either compiler still marks the device function."""
    failures: list[str] = []
    for tc, work in release_workdirs(tmp_path, request, "marks"):
        compiler = BACK_END_ERROR + CHAIN.replace("#pragma once\n", "")
        texts = _write(work / "src", {"compiler.h": compiler, "hd.h": EITHER, "main.cu": MAIN})
        write_files(work / "inc", render_include_dir(plan_shim(texts, Options(rocm_version=tc.rocm_version))))
        args = ["-c", "-I", tc.inner_path(str(work / "inc")), tc.inner_path(str(work / "src" / "main.cu"))]
        errors = hipcc_errors(tc, [*args, "-o", "/dev/null"])
        if errors:
            failures.append(f"{tc.describe()}: {errors}")
    assert not failures, "\n".join(failures)


def test_a_cuda_name_the_project_defines_in_its_hip_branch_is_not_reported_missing(tmp_path: Path) -> None:
    """atomicAdd_block, which HIP lacks, defined by the project where only HIP's compilers read it: hipcc compiles
    the project's own; a name it defines in no such branch is still reported."""
    interop = "#pragma once\n#ifdef LIB_GPU\n#if defined(__HIP_PLATFORM_AMD__)\n#define atomicAdd_block atomicAdd\n#endif\n#endif\n"
    main = (
        '#include <cuda_runtime.h>\n#include "interop.h"\n'
        "__global__ void k(unsigned* c) { atomicAdd_block(c, 1u); __barrier_sync(0); }\n"
    )
    plan = plan_shim(_write(tmp_path, {"interop.h": interop, "main.cu": main}), Options(defines=("LIB_GPU",)))
    reported = [d.message for d in plan.findings if d.severity is Severity.WARNING]
    assert not [m for m in reported if "atomicAdd_block" in m]
    assert [m for m in reported if "__barrier_sync" in m]
