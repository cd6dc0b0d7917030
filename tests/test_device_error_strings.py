"""cudaGetErrorString/cudaGetErrorName in device code: HIP declares them for the host alone, so the translation
brings their device overloads from the compatibility header (generated from ROCm's hipError_t)."""

from __future__ import annotations

import pytest

from hipify import Options, translate
from hipify.compat import load_catalog
from hipify.tablegen.device_errors import ENTRY_NAME, entry_text

DEVICE_CHECK = """\
#include <cstdio>
#include <cuda_runtime.h>
__device__ __forceinline__ void device_assert(cudaError_t code, const char* file, int line) {
  if (code != cudaSuccess) printf("%s (%s) at %s:%d\\n", cudaGetErrorString(code), cudaGetErrorName(code), file, line);
}
inline void host_assert(cudaError_t code) {
  if (code != cudaSuccess) printf("%s\\n", cudaGetErrorString(code));
}
"""
HOST_ONLY = """\
#include <cstdio>
#include <cuda_runtime.h>
// a comment naming cudaGetErrorString in __device__ code counts for nothing
__global__ void k(int* p) { p[0] = 1; }
inline void host_assert(cudaError_t code) {
  if (code != cudaSuccess) printf("%s: %s\\n", cudaGetErrorName(code), cudaGetErrorString(code));
}
"""
HOST_DEVICE = """\
#include <cstdio>
#include <cuda_runtime.h>
__host__ __device__ inline void check(cudaError_t code) {
  if (code != cudaSuccess) printf("%s\\n", cudaGetErrorString(code));
}
"""


def _translate(text: str, engine: str, **kw: object) -> object:
    return translate(text, "k.cu", Options(engine=engine, use_cache=False, **kw))  # type: ignore[arg-type]


@pytest.mark.parametrize("engine", ["regex", "clang"])
@pytest.mark.parametrize("rocm", [(6, 4), (7, 2)])
def test_device_code_calling_the_error_strings_gets_their_device_overloads(engine: str, rocm: tuple[int, int]) -> None:
    result = _translate(DEVICE_CHECK, engine, rocm_version=rocm)
    assert ENTRY_NAME in result.compat  # type: ignore[attr-defined]
    assert '#include "hipify_compat.h"' in result.text  # type: ignore[attr-defined]
    # the calls are translated as everywhere else: the overloads are HIP's names
    assert "hipGetErrorString(code), hipGetErrorName(code)" in result.text  # type: ignore[attr-defined]
    assert "cudaGetError" not in result.text  # type: ignore[attr-defined]
    again = _translate(result.text, engine, rocm_version=rocm)  # type: ignore[attr-defined]
    assert again.text == result.text  # type: ignore[attr-defined]


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_host_and_device_code_counts_host_code_does_not(engine: str) -> None:
    assert ENTRY_NAME in _translate(HOST_DEVICE, engine).compat  # type: ignore[attr-defined]
    host = _translate(HOST_ONLY, engine)
    assert host.compat == ()  # type: ignore[attr-defined]
    assert "hipify_compat.h" not in host.text  # type: ignore[attr-defined]


def test_without_the_compatibility_header_nothing_is_added() -> None:
    result = _translate(DEVICE_CHECK, "regex", compat_header=False)
    assert result.compat == () and "hipify_compat.h" not in result.text  # type: ignore[attr-defined]


def test_the_catalog_entry_covers_every_release_and_names_each_value_once() -> None:
    entry = load_catalog().by_entry_name[ENTRY_NAME]
    assert entry.device_uses == ("cudaGetErrorString", "cudaGetErrorName") and entry.provides == ()
    assert entry.applies_to((6, 4)) and entry.applies_to((7, 2))
    names = [line.split('"')[1] for line in entry.code.splitlines() if line.strip().startswith("if (error ==")]
    assert names[0] == "hipSuccess" and len(names) == len(set(names)) > 50
    assert "__device__ inline const char* hipGetErrorString(hipError_t error)" in entry.code
    assert load_catalog().for_device_use("cudaGetErrorName", (7, 2)) is entry
    assert load_catalog().for_name("cudaGetErrorName", (7, 2)) is None  # translated, not kept as written


def test_the_generator_refuses_an_error_type_it_cannot_read() -> None:
    with pytest.raises(ValueError, match="hipSuccess"):
        entry_text(["hipErrorInvalidValue"])
    text = entry_text(["hipSuccess", "hipErrorInvalidValue", "hipErrorUnknown"])
    assert 'if (error == hipErrorInvalidValue) return "hipErrorInvalidValue";' in text
