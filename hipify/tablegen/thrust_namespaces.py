"""Thrust's CUDA backend namespaces, headers and backend-named functions, and rocThrust's HIP ones
(``thrust::cuda::par`` -> ``thrust::hip::par``, ``<thrust/system/cuda/vector.h>`` -> ``<thrust/system/hip/vector.h>``,
``thrust::cuda_category()`` -> ``thrust::hip_category()``).

Both libraries declare their device backend in ``thrust/system/<backend>/*.h``: an implementation namespace
(CCCL ``thrust::cuda_cub``, rocThrust ``thrust::hip_rocprim``), the system namespace
(``thrust::system::cuda`` / ``thrust::system::hip``) and the short one (``thrust::cuda`` / ``thrust::hip``).
A CUDA namespace pairs with the HIP namespace named like it with ``cuda`` replaced by ``hip``; the one each side has
left over, when each has exactly one, is the implementation namespace, and they pair with each other. Only
namespaces both sides declare in headers of the same name count. A public backend header (not under detail/)
pairs with rocThrust's header of the same path under ``system/hip``. A function a public backend header declares
at namespace scope (or brings in with ``using``) whose name spells ``cuda`` pairs with the one rocThrust's header of
the same name declares in the same namespace with ``hip`` in its place.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..knowledge.table import Row

CUDA_BACKEND = "cuda/cu13/toolkit/cccl/thrust/system/cuda"
HIP_BACKEND = "hip/6.4/librocthrust-dev/thrust/system/hip"
_TOKEN = re.compile(
    r"/\*.*?\*/|//[^\n]*|\bnamespace\s+([A-Za-z_]\w*)\s*\{|(THRUST_NAMESPACE_BEGIN)|(THRUST_NAMESPACE_END)|([{}])", re.S
)
# A function declared (``name(``) or brought in (``using a::b::name;``), read at namespace scope only.
_DECLARED = re.compile(
    r"/\*.*?\*/|//[^\n]*|\bnamespace\s+([A-Za-z_]\w*)\s*\{|(THRUST_NAMESPACE_BEGIN)|(THRUST_NAMESPACE_END)|([{}])"
    r"|\busing\s+(?:[A-Za-z_]\w*\s*::\s*)+([A-Za-z_]\w*)\s*;|([A-Za-z_]\w*)\s*\(",
    re.S,
)


def declared_namespaces(text: str) -> set[str]:
    """'::'-joined paths of the namespaces a header opens (THRUST_NAMESPACE_BEGIN opens ``thrust``)."""
    stack: list[str] = []  # namespace names, and "" for other braces
    found: set[str] = set()
    for m in _TOKEN.finditer(text):
        name, begin, end, brace = m.group(1), m.group(2), m.group(3), m.group(4)
        if name or begin:
            stack.append(name or "thrust")
            found.add("::".join(s for s in stack if s))
        elif end or brace == "}":
            if stack:
                stack.pop()
        elif brace == "{":
            stack.append("")
    return found


def declared_functions(text: str) -> set[str]:
    """'::'-joined paths of the functions a header declares or brings in with ``using`` at namespace scope."""
    stack: list[str] = []  # namespace names, and "" for other braces
    found: set[str] = set()
    for m in _DECLARED.finditer(text):
        name, begin, end, brace, used, called = m.groups()
        if name or begin:
            stack.append(name or "thrust")
        elif end or brace == "}":
            if stack:
                stack.pop()
        elif brace == "{":
            stack.append("")
        elif (used or called) and stack and all(stack):  # not inside a class or a function body
            found.add("::".join([*stack, used or called]))
    return found


def function_pairs(cache: Path) -> dict[str, tuple[str, str]]:
    """CUDA backend function (qualified) -> (rocThrust's, the header name both declare them in)."""
    cuda_root, hip_root = cache / CUDA_BACKEND, cache / HIP_BACKEND
    pairs: dict[str, tuple[str, str]] = {}
    for path in sorted(cuda_root.glob("*.h")):
        other = hip_root / path.name
        if not other.is_file():
            continue
        theirs = declared_functions(other.read_text(encoding="utf-8", errors="replace"))
        for name in sorted(declared_functions(path.read_text(encoding="utf-8", errors="replace"))):
            scope, _, last = name.rpartition("::")
            if "cuda" not in last or not scope.startswith("thrust"):
                continue
            renamed = f"{scope}::{last.replace('cuda', 'hip')}"
            if renamed in theirs:
                pairs.setdefault(name, (renamed, path.name))
    return pairs


def thrust_function_rows(cache: Path) -> list[Row]:
    return _backend_rows(function_pairs(cache), "function")


def _backend(root: Path) -> dict[str, set[str]]:
    return {
        p.name: declared_namespaces(p.read_text(encoding="utf-8", errors="replace")) for p in sorted(root.glob("*.h"))
    }


def namespace_pairs(cache: Path) -> dict[str, tuple[str, str]]:
    """CUDA backend namespace -> (rocThrust's, the header name both declare them in)."""
    cuda, hip = _backend(cache / CUDA_BACKEND), _backend(cache / HIP_BACKEND)
    pairs: dict[str, tuple[str, str]] = {}
    for header in sorted(set(cuda) & set(hip)):
        ours = {n for n in cuda[header] if n.startswith("thrust::") and "detail" not in n}
        theirs = {n for n in hip[header] if n.startswith("thrust::") and "detail" not in n}
        left_ours, left_theirs = [], set(theirs)
        for name in sorted(ours - theirs):  # a namespace both declare (thrust::system) is no pair
            renamed = "::".join("hip" if part == "cuda" else part for part in name.split("::"))
            if renamed != name and renamed in theirs:
                pairs.setdefault(name, (renamed, header))
                left_theirs.discard(renamed)
            elif name.count("::") == 1:
                left_ours.append(name)
        left_top = sorted(n for n in left_theirs - ours if n.count("::") == 1)
        if len(left_ours) == 1 and len(left_top) == 1:
            pairs.setdefault(left_ours[0], (left_top[0], header))
    return pairs


def thrust_namespace_rows(cache: Path) -> list[Row]:
    return _backend_rows(namespace_pairs(cache), "namespace")


def _backend_rows(pairs: dict[str, tuple[str, str]], kind: str) -> list[Row]:
    """One row per CUDA backend name paired with rocThrust's, both declared in headers of the same name."""
    return [
        Row(
            cuda=cuda,
            hip=hip,
            kind=kind,
            api="cub",  # CCCL ships Thrust with CUB; both are header-only on either side
            hip_status="supported",
            cuda_header=f"thrust/system/cuda/{header}",
            hip_header=f"thrust/system/hip/{header}",
            source="thrust-backend",
            note=f"Thrust's CUDA backend {kind} {cuda}; rocThrust's HIP backend declares {hip}",
        )
        for cuda, (hip, header) in sorted(pairs.items())
    ]


def thrust_header_rows(cache: Path) -> list[Row]:
    cuda_root, hip_root = cache / CUDA_BACKEND, cache / HIP_BACKEND
    rows = []
    for path in sorted(cuda_root.rglob("*.h")):
        rel = path.relative_to(cuda_root).as_posix()
        if "detail" in rel.split("/"):
            continue
        hip = (hip_root / rel).is_file()
        rows.append(
            Row(
                cuda=f"thrust/system/cuda/{rel}",
                hip=f"thrust/system/hip/{rel}" if hip else "",
                kind="header",
                api="headers",
                hip_status="supported" if hip else "unsupported",
                cuda_header=f"thrust/system/cuda/{rel}",
                hip_header=f"thrust/system/hip/{rel}" if hip else "",
                source="thrust-backend",
                note="Thrust's CUDA backend header; rocThrust's HIP backend has it under thrust/system/hip"
                if hip
                else "Thrust's CUDA backend header; rocThrust has no counterpart",
            )
        )
    return rows
