"""libcu++ (``<cuda/std/...>``, ``cuda::std::``): CUDA's standard library for device code, and what HIP code writes
instead.

HIP device code has the C++ standard library wherever what is used is ``constexpr`` (clang compiles constexpr
functions for the device too: type traits, limits, tuple, utility, array, ...) and the math of ``<cmath>``
(clang's ``__clang_hip_cmath.h`` declares its device overloads); so ``<cuda/std/X>`` becomes ``<X>`` for those
headers, and ``cuda::std::`` becomes ``std::``. The others (atomics, barriers, semaphores, clocks, libcu++'s own
``<cuda/...>`` extensions) have no device implementation in ROCm 6.4: their rows say what HIP offers instead, and
the translation reports them as hand work.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..knowledge.table import Row

LIBCUDACXX = "cuda/cu13/toolkit/cccl/cuda"
# Standard headers whose facilities HIP device code can use as they are (constexpr, or clang's device math).
DEVICE_STANDARD = frozenset(
    {
        "array",
        "bit",  # bit, concepts, numbers, span: C++20 headers (-std=c++20)
        "cfloat",
        "climits",
        "cmath",
        "concepts",
        "cstddef",
        "cstdint",
        "functional",  # the function objects (std::plus, std::less, ...) are constexpr
        "initializer_list",
        "iterator",
        "limits",
        "numbers",
        "optional",
        "ratio",
        "span",
        "tuple",
        "type_traits",
        "utility",
        "version",
    }
)
# What HIP offers instead of a libcu++ header it has no device counterpart for.
HIP_INSTEAD: dict[str, str] = {
    "atomic": "HIP's atomic functions (atomicAdd, atomicCAS, ... and their _system forms) or the "
    "__hip_atomic_* builtins, which take a memory scope (__HIP_MEMORY_SCOPE_WORKGROUP/AGENT/SYSTEM)",
    "barrier": "__syncthreads() for a block, cooperative groups (this_grid().sync()) for a grid",
    "latch": "__syncthreads() or cooperative groups' sync()",
    "semaphore": "a counter updated with HIP's atomic functions",
    "pipeline": "plain loads and stores followed by __syncthreads(): ROCm has no asynchronous global-to-shared copy",
    "chrono": "clock64() / wall_clock64() in device code, std::chrono on the host",
    "complex": "hip/hip_complex.h (hipFloatComplex, hipDoubleComplex) or thrust::complex",
}


def _public_headers(root: Path) -> list[tuple[str, Path]]:
    """(cuda/std/type_traits, path), (cuda/atomic, path), ...: the headers users include."""
    out = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root.parent).as_posix()
        parts = rel.split("/")
        if any(part.startswith("__") or part == "detail" for part in parts) or "." in parts[-1]:
            continue  # the library's own implementation files
        out.append((rel, path))
    return out


def libcudacxx_header_rows(cache: Path) -> list[Row]:
    rows: list[Row] = []
    for rel, _path in _public_headers(cache / LIBCUDACXX):
        name = rel.rsplit("/", 1)[-1]
        if rel.startswith("cuda/std/") and name in DEVICE_STANDARD:
            rows.append(
                Row(
                    cuda=rel,
                    hip=name,
                    kind="header",
                    api="headers",
                    hip_status="supported",
                    cuda_header=rel,
                    hip_header=name,
                    source="libcudacxx",
                    note=f"the standard <{name}>, which HIP device code can use (constexpr or clang's device math)",
                )
            )
            continue
        instead = HIP_INSTEAD.get(name, "")
        rows.append(
            Row(
                cuda=rel,
                kind="header",
                api="headers",
                cuda_header=rel,
                source="libcudacxx",
                note=f"no device implementation in ROCm; instead: {instead}" if instead else "no HIP counterpart",
            )
        )
    return rows


def libcudacxx_namespace_rows(cache: Path) -> list[Row]:
    """``cuda::std`` -> ``std``, where the cache holds libcu++'s headers."""
    if not (cache / LIBCUDACXX / "std").is_dir():
        return []
    return [_NAMESPACE_ROW]


_NAMESPACE_ROW = Row(
    cuda="cuda::std",
    hip="std",
    kind="namespace",
    api="device",
    hip_status="supported",
    cuda_header="cuda/std/version",
    hip_header="version",
    source="libcudacxx",
    note="libcu++'s standard library namespace; HIP device code uses the standard library's constexpr parts "
    "and clang's device math directly",
)


# libcu++ opens its namespaces with macros: _LIBCUDACXX_BEGIN_NAMESPACE_STD is cuda::std, ..._CUDA is cuda.
_NAMESPACE_MACRO = re.compile(r"^\s*_(?:LIBCUDACXX|CCCL)_(BEGIN|END)_NAMESPACE_(\w+)", re.MULTILINE)
_NAMESPACES = {"STD": "cuda::std", "CUDA": "cuda", "CUDA_DEVICE": "cuda::device"}
# Declarations at the start of a line (class members are indented): public names start with a lower-case letter.
_DECLARATION = re.compile(
    r"^(?:template\s*<[^;{]*?>\s*)?(?:struct|class)\s+(?:_\w+\s+)*([a-z]\w*)\b(?!\s*;)"
    r"|^using\s+([a-z]\w*)\s*="
    r"|^using\s+_CUDA_VSTD::([a-z]\w*)\s*;"
    r"|^enum\s+(?:class\s+)?([a-z]\w*)\s*(?::[^{;]*)?\{([^}]*)\}"
    r"|^_(?:CCCL|LIBCUDACXX)_\w+\s+(?:inline\s+)?(?:constexpr\s+)?[\w:<>]+\s+([a-z]\w*)\s*\("
    r"|^(?:_\w+\s+)*inline\s+constexpr\s+[\w:<>]+\s+([a-z]\w*)\s*=",
    re.MULTILINE | re.DOTALL,
)
_ENUMERATOR = re.compile(r"^\s*([a-z]\w*)\s*[=,]?", re.MULTILINE)


def declared_names(text: str) -> dict[str, str]:
    """Qualified public name -> kind, for the declarations a libcu++ file makes in the namespaces users name."""
    out: dict[str, str] = {}
    spans: list[tuple[int, str]] = []  # (offset, namespace in force from there)
    stack: list[str] = []
    for m in _NAMESPACE_MACRO.finditer(text):
        if m.group(1) == "BEGIN":
            stack.append(_NAMESPACES.get(m.group(2), ""))
        elif stack:
            stack.pop()
        spans.append((m.end(), stack[-1] if stack else ""))
    for m in _DECLARATION.finditer(text):
        namespace = next((ns for at, ns in reversed(spans) if at <= m.start()), "")
        if not namespace:
            continue
        if m.group(4):
            out[f"{namespace}::{m.group(4)}"] = "type"
            for e in _ENUMERATOR.finditer(m.group(5)):
                out[f"{namespace}::{e.group(1)}"] = "enum_constant"
            continue
        name = m.group(1) or m.group(2) or m.group(3)
        if name:
            out[f"{namespace}::{name}"] = "type"
        elif m.group(6):
            out[f"{namespace}::{m.group(6)}"] = "function"
        else:
            out[f"{namespace}::{m.group(7)}"] = "enum_constant"  # inline constexpr memory_order_relaxed = ...
    return out


def libcudacxx_name_rows(cache: Path) -> list[Row]:
    """The names declared by the headers with no device counterpart (cuda::atomic, cuda::std::atomic_ref,
    cuda::thread_scope_device, cuda::pipeline, ...): rows without a target, whose note says what HIP offers, so
    that the translation keeps and reports them (and keeps ``cuda::std::`` before them)."""
    root = cache / LIBCUDACXX
    rows: dict[str, Row] = {}
    for rel, path in _public_headers(root):
        name = rel.rsplit("/", 1)[-1]
        if rel.startswith("cuda/std/") and name in DEVICE_STANDARD:
            continue
        folder = path.parent / f"__{name}"
        files = [path, *sorted(folder.rglob("*.h"))] if folder.is_dir() else [path]
        instead = HIP_INSTEAD.get(name, "")
        note = f"declared by <{rel}>; no device implementation in ROCm" + (f"; instead: {instead}" if instead else "")
        for file in files:
            for qualified, kind in declared_names(file.read_text(encoding="utf-8", errors="replace")).items():
                rows.setdefault(
                    qualified,
                    Row(cuda=qualified, kind=kind, api="device", cuda_header=rel, source="libcudacxx", note=note),
                )
    return [rows[k] for k in sorted(rows)]
