"""bench/realcode.py's whole-program builds: which folders are built, how a failed build is read, the shares
the report gives, and one real build of a small project of our own (skipped where there is no ROCm hipcc)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import rocm_toolchain

from hipify.validate import parts as toolchain_parts

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from realcode_build import (
    MAKE,
    BuildCache,
    BuildResult,
    BuildUnit,
    build_error,
    build_unit,
    cmake_units,
    make_units,
)
from realcode_build_report import hecbench_share, sample_eligibility, samples_share
from realcode_compile import CompileError, CompileSettings, ProgramResult, compiler_identity
from realcode_programs import Program


def _program(corpus: str, name: str, folder: str) -> Program:
    return Program(corpus, name, folder, (f"{folder}/main.cu",), ())


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def test_make_units_use_the_folder_or_the_shallowest_makefile_below(tmp_path: Path) -> None:
    _write(tmp_path, {"src/a-cuda/Makefile": "", "src/b-cuda/build/deep/Makefile": "", "src/b-cuda/build/Makefile": ""})
    (tmp_path / "src/c-cuda").mkdir()
    programs = [_program("hecbench", n, f"src/{n}-cuda") for n in ("a", "b", "c")]
    units = make_units(programs, tmp_path)
    assert [(u.name, u.folder) for u in units] == [("a", "src/a-cuda"), ("b", "src/b-cuda/build")]


def test_cmake_units_are_projects_once_per_folder(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "cuBLAS/amax/CMakeLists.txt": "cmake_minimum_required(VERSION 3.18)\nproject(x LANGUAGES CXX CUDA)\n",
            "cuBLAS/part/CMakeLists.txt": "add_executable(y y.cu)\n",
        },
    )
    programs = [
        _program("samples", "cuBLAS/amax:one", "cuBLAS/amax"),
        _program("samples", "cuBLAS/amax:two", "cuBLAS/amax"),
        _program("samples", "cuBLAS/part", "cuBLAS/part"),
    ]
    assert [(u.name, u.system) for u in cmake_units(programs, tmp_path)] == [("cuBLAS/amax", "cmake")]


def test_a_failed_build_is_located_in_the_tree(tmp_path: Path) -> None:
    _write(tmp_path, {"src/a-cuda/main.cu": "int main() {\n  cudaFoo();\n}\n"})
    out = "hipcc -c main.cu\n/w/src/a-cuda/main.cu:2:3: error: use of undeclared identifier 'cudaFoo'\nmake: *** [x] Error 1\n"
    stage, error = build_error(out, "/w", tmp_path)
    assert (stage, error.file, error.line, error.text) == ("compile", "src/a-cuda/main.cu", 2, "cudaFoo();")
    stage, error = build_error(
        "/usr/bin/ld: /w/src/a-cuda/main.o: undefined reference to `hipblasCreate'\n", "/w", tmp_path
    )
    assert (stage, error.message) == ("link", "undefined reference to `hipblasCreate'")


def test_a_failed_build_is_judged_again_from_its_cached_log(tmp_path: Path) -> None:
    """The cache keeps a failed build's log, so a better reader of logs judges it again without a rebuild."""
    cache = BuildCache(tmp_path / "cache")
    unit = BuildUnit(_program("samples", "cuSOLVER/ormqr", "cuSOLVER/ormqr"), "cmake", "cuSOLVER/ormqr")
    log = "/usr/bin/x86_64-linux-gnu-ld.bfd: cannot find -lcusolverMg: No such file or directory\ngmake: *** [all] Error 2\n"
    # as an older reader judged it: make's stop, at compile
    old = BuildResult("samples", "cuSOLVER/ormqr", "translated", "cmake", True, False, False, "compile",
                      CompileError("gmake: [all] Error 2"), 1.0, log=log, inner_root="/w")  # fmt: skip
    cache.put("k", old)
    again = cache.get("k", unit, "translated", tmp_path)
    assert again is not None and (again.stage, again.compiled, again.linked) == ("link", True, False)
    assert again.error is not None and again.error.message == "cannot find -lcusolverMg: No such file or directory"


def _built(corpus: str, name: str, kind: str, ok: bool) -> BuildResult:
    return BuildResult(
        corpus, name, kind, MAKE, None, ok, ok, "" if ok else "compile", None if ok else CompileError("x")
    )


def test_hecbench_share_counts_only_where_the_port_builds() -> None:
    results = [
        _built("hecbench", "a", "translated", True),
        _built("hecbench", "a", "ported", True),
        _built("hecbench", "b", "translated", False),
        _built("hecbench", "b", "ported", True),
        _built("hecbench", "c", "translated", True),
        _built("hecbench", "c", "ported", False),  # the environment's ceiling: not counted
    ]
    share = hecbench_share(results)
    assert (share.programs, share.built, share.eligible, share.built_eligible) == (3, 2, 2, 1)
    assert share.share == 0.5


def test_samples_count_where_the_sources_compile_and_the_library_exists() -> None:
    def compiled(name: str, ok: bool) -> ProgramResult:
        return ProgramResult("samples", name, "translated", ok, ())

    by_folder = {"cuBLAS/amax": [compiled("cuBLAS/amax", True)], "cuBLAS/gemm": [compiled("cuBLAS/gemm", False)]}
    builds = [
        _built("samples", "cuBLAS/amax", "translated", True),
        _built("samples", "cuBLAS/gemm", "translated", False),
        _built("samples", "cuTENSOR/contraction", "translated", False),
    ]
    exists = {"cuBLAS": True, "cuTENSOR": False}.__getitem__
    assert sample_eligibility(builds[2], by_folder, exists) == "no HIP library for cuTENSOR in the environment"
    share, why = samples_share(builds, by_folder, exists)
    assert why["cuBLAS/gemm"] == "its sources do not compile"
    assert (share.eligible, share.built_eligible, share.share) == (1, 1, 1.0)


@pytest.mark.hipcc
def test_a_makefile_of_our_own_builds_and_a_missing_function_does_not_link(tmp_path: Path) -> None:
    tc = rocm_toolchain(toolchain_parts.MAKE)  # the Makefiles call hipcc alone
    root = Path(tc.work_root()) / f"bench-build-{tmp_path.name}"
    makefile = (
        "app: main.o\n\thipcc main.o -o app\n\nmain.o: main.hip\n\thipcc --offload-arch=gfx90a -c main.hip -o main.o\n"
    )
    main = "#include <hip/hip_runtime.h>\nvoid helper();\n__global__ void k() {}\nint main() { k<<<1, 1>>>(); %s return 0; }\n"
    try:
        _write(
            root,
            {
                "ok/Makefile": makefile,
                "ok/main.hip": main % "",
                "bad/Makefile": makefile,
                "bad/main.hip": main % "helper();",
            },
        )
        settings = CompileSettings(tc, compiler_identity(tc))
        ok = build_unit(settings, BuildUnit(_program("hecbench", "ok", "ok"), MAKE, "ok"), root, "translated", root)
        bad = build_unit(settings, BuildUnit(_program("hecbench", "bad", "bad"), MAKE, "bad"), root, "translated", root)
    finally:
        import shutil

        shutil.rmtree(root, ignore_errors=True)
    assert (ok.compiled, ok.linked, ok.stage) == (True, True, "")
    assert (bad.compiled, bad.linked, bad.stage) == (True, False, "link")
    assert bad.error is not None and "helper" in bad.error.message
