"""CUDA names handed to the runtime as strings (rules/symbol_strings.py, HPY037): a driver function looked up by
name, and an error name compared with the runtime's, become HIP's names; every other string keeps its text."""

from __future__ import annotations

import pytest
from conftest import RocmCompiler

from hipify import Options, translate

LOOKUP = """\
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
static void* find(const char* symbol) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult status;
  cudaGetDriverEntryPoint(symbol, &fn, cudaEnableDefault, &status);
  return fn;
}
int count_devices() {
  auto get_count = reinterpret_cast<decltype(&cuDeviceGetCount)>(find("cuDeviceGetCount"));
  int n = 0;
  if (get_count == nullptr) std::printf("cuDeviceGetCount not found\\n");
  return get_count != nullptr && get_count(&n) == CUDA_SUCCESS ? n : -1;
}
"""
COMPARED = """\
#include <cuda_runtime.h>
#include <cstring>
bool no_device(cudaError_t e) {
  const char* name = cudaGetErrorName(e);
  return !std::strncmp(name, "cudaErrorNoDevice", 17) || "cudaErrorInvalidDevice" == std::string(name) ||
         std::string(name) != "cudaErrorNotReady";
}
const char* label = "cudaErrorNoDevice";
"""


def _translate(text: str, engine: str, rocm: tuple[int, int] = (7, 2)) -> str:
    return translate(text, "k.cu", Options(engine=engine, use_cache=False, rocm_version=rocm)).text  # type: ignore[arg-type]


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_a_driver_function_looked_up_by_name_is_looked_up_by_hips_name(engine: str) -> None:
    out = _translate(LOOKUP, engine)
    assert 'find("hipGetDeviceCount")' in out
    assert 'std::printf("cuDeviceGetCount not found\\n")' in out  # a message, not an argument naming a function
    assert _translate(out, engine) == out


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_an_error_name_compared_with_the_runtimes_is_hips(engine: str) -> None:
    out = _translate(COMPARED.replace("#include <cstring>", "#include <cstring>\n#include <string>"), engine)
    assert 'std::strncmp(name, "hipErrorNoDevice", 17)' in out
    assert '"hipErrorInvalidDevice" == std::string(name)' in out
    assert 'std::string(name) != "hipErrorNotReady"' in out
    assert 'label = "cudaErrorNoDevice";' in out  # not compared: its text stays


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_a_driver_error_name_compared_with_the_drivers_is_hips(engine: str) -> None:
    text = (
        "#include <cuda.h>\n#include <cstring>\n"
        "bool invalid(CUresult r) {\n  const char* name = nullptr;\n  cuGetErrorName(r, &name);\n"
        '  return std::strcmp(name, "CUDA_ERROR_INVALID_VALUE") == 0;\n}\n'
    )
    assert 'std::strcmp(name, "hipErrorInvalidValue") == 0' in _translate(text, engine)


def test_without_a_lookup_or_an_error_name_call_strings_stay() -> None:
    text = LOOKUP.replace("cudaGetDriverEntryPoint(symbol, &fn, cudaEnableDefault, &status);", "(void)status;")
    assert 'find("cuDeviceGetCount")' in _translate(text, "regex")


def test_a_function_hip_lacks_is_reported_where_it_is_looked_up() -> None:
    text = LOOKUP.replace('find("cuDeviceGetCount")', 'find("cuMemBatchDecompressAsync")')
    result = translate(text, "k.cu", Options(engine="regex", use_cache=False))
    assert 'find("cuMemBatchDecompressAsync")' in result.text
    [found] = [d for d in result.diagnostics if d.code == "HPY101" and "looked up by name" in d.message]
    assert found.subject == "cuMemBatchDecompressAsync"


@pytest.mark.hipcc
def test_the_translation_compiles(rocm: RocmCompiler) -> None:
    source = rocm.work / "lookup.hip"
    source.write_text(_translate(LOOKUP, "regex", rocm.toolchain.rocm_version))
    proc = rocm.compile(source)
    assert proc.returncode == 0, proc.stdout + proc.stderr
