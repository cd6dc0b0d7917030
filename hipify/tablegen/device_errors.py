"""The device overloads of HIP's error-string functions, from the ROCm releases' own ``hipError_t``.

CUDA's runtime declares ``cudaGetErrorString`` and ``cudaGetErrorName`` for device code as well (its error-checking
macros call them in kernels); HIP's ``hipGetErrorString``/``hipGetErrorName`` are host functions, so a translated
device call matches nothing. Clang overloads on ``__device__``, so the compatibility header can add device versions
beside HIP's host ones: each returns the enumerator's name (HIP's descriptive strings live in the host runtime). The
enumerators are those every ROCm release declares, in the newest release's order, the first name of a value winning
(``hipErrorOutOfMemory`` before its old alias).
"""

from __future__ import annotations

from collections.abc import Mapping

from .headers import HeaderIndex
from .scan import Decl

ERROR_TYPE = "hipError_t"
ENTRY_NAME = "device_error_strings"
DEVICE_USES = ("cudaGetErrorString", "cudaGetErrorName")
# No corpus program runs it: CUDA needs relocatable device code and its device runtime for these calls, and the
# names differ by design (hipSuccess for cudaSuccess); tests/test_device_error_strings.py compiles its uses.
CHECKED_BY = ""
_FALLBACK = "hipErrorUnknown"


def error_enumerators(indexes: Mapping[str, HeaderIndex], newest: str) -> list[str]:
    """The ``hipError_t`` enumerators every release declares, not deprecated, in ``newest``'s order."""
    others = [_enumerators(idx) for release, idx in indexes.items() if release != newest]
    return [n for n in _enumerators(indexes[newest]) if all(n in found for found in others)]


def _enumerators(index: HeaderIndex) -> dict[str, None]:
    """One release's ``hipError_t`` enumerators, not deprecated, in declaration order."""
    return dict.fromkeys(n for n, hits in index.names.items() if any(_enumerator(h.decl) for h in hits))


def _enumerator(decl: Decl) -> bool:
    return decl.kind == "enum_constant" and decl.parent == ERROR_TYPE and not decl.deprecated


def entry_text(enumerators: list[str]) -> str:
    """The ``[[entry]]`` (derived.toml's schema) holding both device overloads."""
    if "hipSuccess" not in enumerators or _FALLBACK not in enumerators:
        raise ValueError(f"{ERROR_TYPE} as scanned lacks hipSuccess or {_FALLBACK}: the headers changed")
    tests = [f'  if (error == {name}) return "{name}";' for name in enumerators]
    code = [
        "__device__ inline const char* hipGetErrorName(hipError_t error) {",
        *tests,
        f'  return "{_FALLBACK}";',
        "}",
        "",
        "__device__ inline const char* hipGetErrorString(hipError_t error) { return hipGetErrorName(error); }",
    ]
    example = (
        "__device__ const char* compat_example_device_error_strings(hipError_t e) {\n"
        "  return e == hipSuccess ? hipGetErrorName(e) : hipGetErrorString(e);\n"
        "}"
    )
    note = (
        "cudaGetErrorString and cudaGetErrorName called in device code (CUDA declares them for the device too; "
        "HIP for the host alone): device overloads of hipGetErrorString and hipGetErrorName beside HIP's host "
        f"functions. Both return the enumerator's name ({len(enumerators)} values of {ERROR_TYPE} every ROCm "
        f"release declares; {_FALLBACK} for any other), not CUDA's description."
    )
    uses = ", ".join(f'"{n}"' for n in DEVICE_USES)
    return "\n".join(
        [
            "[[entry]]",
            f'name = "{ENTRY_NAME}"',
            "provides = []",
            f"device_uses = [{uses}]",
            "gpu_only = true",
            'hip_includes = ["hip/hip_runtime.h"]',
            "code = '''",
            *code,
            "'''",
            f'note = """{note}"""',
            "example = '''",
            example,
            "'''",
            f'checked_by = "{CHECKED_BY}"',
        ]
    )
