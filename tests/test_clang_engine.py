"""The clang engine end to end (``translate(..., engine="clang")``) in every CUDA environment."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("clang.cindex")

from test_clang_fixtures import TABLE

from hipify.clang_mode import environment
from hipify.options import Options
from hipify.translation.api import translate

if not environment.clang_available()[0]:
    pytest.skip(environment.clang_available()[1], allow_module_level=True)


@pytest.fixture(params=["auto", "none", "empty-path"])
def cuda_path(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "auto":
        return ""
    if request.param == "none":
        return "none"
    empty = tmp_path / "nothing"
    empty.mkdir()
    return str(empty)


SOURCE = """\
#include <cuda_runtime.h>
__constant__ float k[4];
template <typename T> __global__ void add(T* p, T v) { p[threadIdx.x] += v; }
cudaError_t cudaMallocHost(int tag) { return cudaSuccess; }
void f(float* h) {
  float* d;
  cudaEvent_t e;
  cudaMalloc(&d, 16);
  cudaMemcpyToSymbol(k, h, sizeof(k));
  cudaEventCreate(&e);
  cudaEventCreate(&e, 0);
  cudaMallocHost(3);
  add<<<1, 4>>>(d, 1.0f);
  cudaFree(d);
}
"""

EXPECTED = """\
#include <hip/hip_runtime.h>
__constant__ float k[4];
template <typename T> __global__ void add(T* p, T v) { p[threadIdx.x] += v; }
hipError_t cudaMallocHost(int tag) { return hipSuccess; }
void f(float* h) {
  float* d;
  hipEvent_t e;
  hipMalloc(&d, 16);
  hipMemcpyToSymbol(HIP_SYMBOL(k), h, sizeof(k));
  hipEventCreate(&e);
  hipEventCreateWithFlags(&e, 0);
  cudaMallocHost(3);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(add), dim3(1), dim3(4), 0, 0, d, 1.0f);
  hipFree(d);
}
"""


def test_translation_is_the_same_in_every_environment(cuda_path: str) -> None:
    options = Options(engine="clang", cuda_path=cuda_path, hip_kernel_syntax=True, use_cache=False)
    result = translate(SOURCE, path="f.cu", options=options, table=TABLE)
    assert result.engine == "clang"
    assert result.text == EXPECTED
    assert not [d for d in result.diagnostics if d.code in ("HPY201", "HPY202", "HPY203", "HPY204")]
    again = translate(result.text, path="f.cu", options=options, table=TABLE)
    assert again.text == result.text


def test_a_file_with_parse_errors_is_still_translated(cuda_path: str) -> None:
    text = (
        '#include "missing/everything.h"\n'
        "void g() {\n  float* d;\n  MISSING_MACRO(d);\n  cudaMalloc(&d, 4);\n"
        "  broken syntax here ((;\n  cudaFree(d);\n}\n"
    )
    options = Options(engine="clang", cuda_path=cuda_path, use_cache=False, clang_parse="always")
    result = translate(text, path="g.cu", options=options, table=TABLE)
    assert result.engine == "clang"
    assert "hipMalloc(&d, 4)" in result.text and "hipFree(d)" in result.text
    codes = {d.code for d in result.diagnostics}
    assert "HPY203" in codes
    hpy203 = next(d for d in result.diagnostics if d.code == "HPY203")
    assert hpy203.line == 1 and hpy203.path == "g.cu"


def test_a_file_without_cuda_is_untouched(cuda_path: str) -> None:
    text = "#include <vector>\nint add(int a, int b) { return a + b; }\n"
    options = Options(engine="clang", cuda_path=cuda_path, use_cache=False)
    result = translate(text, path="plain.cpp", options=options, table=TABLE)
    assert result.text == text and result.engine == "clang"


def test_defines_select_the_active_branch(cuda_path: str) -> None:
    text = "#ifdef USE_B\nvoid b() { cudaDeviceSynchronize(); }\n#else\nvoid a() { cudaDeviceReset(); }\n#endif\n"
    options = Options(
        engine="clang", cuda_path=cuda_path, use_cache=False, skip_excluded_blocks=True, defines=("USE_B",)
    )
    result = translate(text, path="b.cpp", options=options, table=TABLE)
    assert "hipDeviceSynchronize" in result.text
    assert "cudaDeviceReset" in result.text  # the excluded branch is left alone


def test_the_parser_runs_only_where_the_ast_can_change_the_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    from hipify.clang_mode import engine

    parsed: list[str] = []
    real = engine.parse
    monkeypatch.setattr(engine, "parse", lambda source, *a: parsed.append(source.path) or real(source, *a))
    options = Options(engine="clang", use_cache=False)
    plain = "void f(float* d) { cudaMalloc(&d, 4); cudaFree(d); }\n"
    assert "hipMalloc" in translate(plain, path="plain.cu", options=options, table=TABLE).text
    assert parsed == []  # nothing the text does not show: the text facts decide
    translate(SOURCE, path="overload.cu", options=options, table=TABLE)  # declares its own cudaMallocHost
    assert parsed == ["overload.cu"]
    translate(plain, path="always.cu", options=Options(engine="clang", use_cache=False, clang_parse="always"),
              table=TABLE)  # fmt: skip
    assert parsed == ["overload.cu", "always.cu"]
