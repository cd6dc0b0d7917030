"""How the clang engine finds libclang, clang's headers and CUDA; the generated prelude; -p."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("clang.cindex")

from test_clang_fixtures import TABLE

from hipify.clang_mode import compdb, environment, parsing, prelude
from hipify.model import SourceFile
from hipify.options import Options


def test_clang_available_names_the_cuda_environment() -> None:
    usable, reason = environment.clang_available()
    assert usable, reason
    assert "cuda" in reason
    assert environment.resource_dir() is not None


def test_none_forces_the_prelude() -> None:
    env = environment.detect_cuda("none")
    assert env.kind == "prelude" and env.root == ""


def test_an_empty_cuda_path_means_no_cuda(tmp_path: Path) -> None:
    env = environment.detect_cuda(str(tmp_path))
    assert env.kind == "prelude"
    assert str(tmp_path) in env.reason


def test_a_toolkit_is_recognised_by_its_runtime_header(tmp_path: Path) -> None:
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "cuda_runtime.h").write_text("")
    (tmp_path / "include" / "cccl").mkdir()
    env = environment.detect_cuda(str(tmp_path))
    assert env.kind == "toolkit" and env.root == str(tmp_path)
    assert env.include_dirs == (str(tmp_path / "include" / "cccl"),)


def test_wheel_layout_gets_a_synthesised_cuda_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    include = tmp_path / "nvidia" / "cuda_runtime" / "include"  # CUDA 12.x split layout
    include.mkdir(parents=True)
    (include / "cuda_runtime.h").write_text("")
    crt = tmp_path / "nvidia" / "cuda_nvcc" / "include"
    crt.mkdir(parents=True)
    monkeypatch.setattr(environment, "_toolkit_candidates", lambda: [])
    monkeypatch.setattr(environment, "_nvidia_wheel_roots", lambda: [tmp_path / "nvidia"])
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "cache"))
    environment.detect_cuda.cache_clear()
    try:
        env = environment.detect_cuda("")
    finally:
        environment.detect_cuda.cache_clear()
    assert env.kind == "wheels"
    root = Path(env.root)
    assert (root / "bin").is_dir() and (root / "include" / "cuda_runtime.h").is_file()
    assert str(crt) in env.include_dirs


def test_nothing_found_falls_back_to_the_prelude(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(environment, "_toolkit_candidates", lambda: [])
    monkeypatch.setattr(environment, "_nvidia_wheel_roots", lambda: [])
    environment.detect_cuda.cache_clear()
    try:
        assert environment.detect_cuda("").kind == "prelude"
    finally:
        environment.detect_cuda.cache_clear()


def test_generated_prelude_declares_every_kind() -> None:
    text = prelude.generate(TABLE)
    assert "cudaConfigureCall" in text and "__cudaPushCallConfiguration" in text
    assert "__hpy_any cudaMalloc(A&&...)" in text
    assert "enum cudaMemcpyKind {" in text and "cudaMemcpyHostToDevice" in text
    assert "typedef struct __hpy_cudaEvent_t_st *cudaEvent_t;" in text
    assert "struct cudaDeviceProp { __hpy_any totalGlobalMem; };" in text
    assert "#define cudaStreamNonBlocking __hpy_macro" in text
    assert "namespace cub {}" in text
    assert "cudaBindTexture" in text  # unsupported rows are declared too: they must still parse


USES_EVERY_NAME = """\
#include <cuda_runtime.h>
#include <cub/cub.cuh>
__constant__ int sym[2];
__global__ void k(int *p) { __syncthreads(); atomicAdd(p, 1); }
int main() {
  int *d = nullptr; cudaEvent_t e; cudaStream_t s; cudaDeviceProp prop;
  cudaError_t err = cudaMalloc(&d, 8);
  if (err != cudaSuccess) { printf("%s", cudaGetErrorString(err)); return 1; }
  cudaMemcpy(d, d, 8, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(sym, d, 8);
  cudaStreamCreate(&s); cudaEventCreate(&e); cudaEventRecord(e, s);
  cudaGetDeviceProperties(&prop, 0);
  size_t total = prop.totalGlobalMem / 1024;
  k<<<1, 1, 0, s>>>(d);
  unsigned flags = cudaStreamNonBlocking;
  cudaDeviceSynchronize();
  cudaFree(d);
  return cudaGetLastError() == cudaErrorMemoryAllocation ? 2 : (int)total + (int)flags;
}
"""


def test_prelude_parses_typical_cuda_without_errors() -> None:
    parsed = parsing.parse(SourceFile("every.cu", USES_EVERY_NAME), TABLE, Options(cuda_path="none"))
    assert parsed.env.kind == "prelude"
    assert [d.spelling for d in parsed.errors] == []


def test_stub_headers_cover_table_headers() -> None:
    names = prelude.header_names(TABLE)
    assert "cuda_runtime.h" in names and "cub/cub.cuh" in names


def test_pch_is_reused_and_can_be_disabled(monkeypatch: pytest.MonkeyPatch) -> None:
    source = SourceFile("p.cu", "void f() { cudaDeviceSynchronize(); }\n")
    first = parsing.parse(source, TABLE, Options(cuda_path="none"))
    assert first.used_pch
    monkeypatch.setenv("HIPIFY_PY_NO_PCH", "1")
    second = parsing.parse(source, TABLE, Options(cuda_path="none"))
    assert not second.used_pch and not second.errors


def test_a_corrupt_or_stale_pch_on_disk_is_discarded_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    # Another checkout or an older run may leave a PCH clang refuses (libclang then returns no TU at all).
    source = SourceFile("stale.cu", "void f() { cudaDeviceSynchronize(); }\n")
    first = parsing.parse(source, TABLE, Options(cuda_path="none"))
    assert first.used_pch
    pch = first.args[first.args.index("-include-pch") + 1]
    Path(pch).write_bytes(b"not a precompiled header")
    monkeypatch.setattr(parsing, "_pch_cache", {})  # as in a new process
    second = parsing.parse(source, TABLE, Options(cuda_path="none"))
    assert not second.used_pch and not second.errors
    assert not Path(pch).exists()  # the next run builds a fresh one
    third = parsing.parse(source, TABLE, Options(cuda_path="none"))
    assert not third.errors


def test_compile_commands_flags(tmp_path: Path) -> None:
    src = tmp_path / "src" / "a.cu"
    src.parent.mkdir()
    src.write_text("int x = MY_VALUE;\n")
    (tmp_path / "inc").mkdir()
    database = [
        {
            "directory": str(tmp_path / "build"),
            "file": "../src/a.cu",
            "command": "nvcc -O3 -I../inc -isystem /opt/x -DMY_VALUE=3 -D FLAG --std=c++17 -arch=sm_80 "
            "--expt-relaxed-constexpr -c ../src/a.cu -o a.o",
        }
    ]
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "compile_commands.json").write_text(json.dumps(database))
    flags = compdb.flags_for(str(tmp_path / "build"), str(src))
    assert flags == (f"-I{tmp_path / 'inc'}", "-isystem", "/opt/x", "-DMY_VALUE=3", "-DFLAG", "-std=c++17")
    parsed = parsing.parse(
        SourceFile(str(src), src.read_text()), TABLE, Options(cuda_path="none", build_dir=str(tmp_path / "build"))
    )
    assert not parsed.errors  # MY_VALUE came from the database


def test_command_line_defines_and_include_dirs_reach_the_parser(tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "mine.h").write_text("#define FROM_HEADER 1\n")
    text = '#include "mine.h"\nint a = FROM_HEADER + FROM_CLI;\n'
    parsed = parsing.parse(
        SourceFile(str(tmp_path / "x.cu"), text),
        TABLE,
        Options(cuda_path="none", include_dirs=(str(tmp_path / "inc"),), defines=("FROM_CLI=2",)),
    )
    assert not parsed.errors
