"""Names a CUDA header makes visible through the headers it includes that its HIP counterpart does not include
(CUDA 13's ``cub/cub.cuh`` includes Thrust's iterator headers, hipCUB's ``hipcub/hipcub.hpp`` does not include
rocThrust's): with only the translated include, a file using ``thrust::counting_iterator`` stops compiling.

Both include closures are followed through every ``#if`` branch. A header of the CUDA closure counts when the
HIP release ships a public header of the same path (rocThrust keeps Thrust's layout) that the HIP closure does not
reach; the names it declares in its library's namespace, that the HIP header of that path declares too and that
nothing of the HIP closure declares, are recorded with that header: the translation includes it where a file uses
one of them (``Row.brings``).
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

from .scan import scan_text

# CUDA's public C++ libraries whose headers HIP's libraries ship under the same paths: folder -> namespace.
SAME_PATH_LIBRARIES = {"thrust": "thrust"}
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', re.MULTILINE)
# Headers of HIP's NVIDIA backends: they include CUDA's own headers, never compiled for AMD.
_NVIDIA_BACKEND = re.compile(r"nvidia|_nvcc|/backend/cub/")
# A class the scanner misses behind an attribute macro (``class THRUST_DECLSPEC_EMPTY_BASES counting_iterator``).
_CLASS = re.compile(r"\b(?:class|struct)\s+(?:[A-Z_][A-Z0-9_]*\s+)*([A-Za-z]\w*)\s*[:{<\n]")
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)


@cache
def _includes(path: Path) -> tuple[str, ...]:
    return tuple(_INCLUDE.findall(path.read_text(errors="replace")))


def closure(start: str, roots: tuple[Path, ...]) -> dict[str, Path]:
    """Relative header -> file, for ``start`` and every header it includes (all branches) found under ``roots``."""
    found: dict[str, Path] = {}
    todo = [start]
    while todo:
        rel = todo.pop()
        if rel in found or _NVIDIA_BACKEND.search(rel):
            continue
        path = next((root / rel for root in roots if (root / rel).is_file()), None)
        if path is None:
            continue
        found[rel] = path
        folder = rel.rpartition("/")[0]
        for name in _includes(path):
            beside = os.path.normpath(f"{folder}/{name}") if folder else name
            todo.append(beside if any((root / beside).is_file() for root in roots) else name)
    return found


@cache
def _names(path: Path, namespace: str) -> frozenset[str]:
    """The public names a library header declares, qualified by its namespace (``thrust::counting_iterator``)."""
    text = path.read_text(errors="replace")
    words = {(d.namespace, d.name) for d in scan_text(text).decls}
    words |= {("", m) for m in _CLASS.findall(_COMMENT.sub(" ", text))}
    out = set()
    for inner, name in words:
        if name.startswith("_") or name.isupper() or name == namespace or "detail" in inner.split("::"):
            continue
        outer = "" if inner.split("::")[0] == namespace else namespace  # opened by name, not by a macro
        out.add("::".join(part for part in (outer, inner, name) if part))
    return frozenset(out)


def _public(rel: str) -> str:
    """The namespace of a public header of a same-path library ('' for others and implementation headers)."""
    parts = rel.split("/")
    if parts[0] not in SAME_PATH_LIBRARIES or "detail" in parts or "system" in parts:
        return ""
    return SAME_PATH_LIBRARIES[parts[0]]


def brought_names(cuda_header: str, cuda_roots: tuple[Path, ...], hip_header: str, hip_roots: tuple[Path, ...]) -> str:
    """``name=header`` pairs, space-separated and sorted: the names ``cuda_header`` makes visible that
    ``hip_header`` does not, with the HIP header declaring each."""
    cuda_side = closure(cuda_header, cuda_roots)
    hip_side = closure(hip_header, hip_roots)
    if not any(_public(rel) for rel in cuda_side):
        return ""
    visible: set[str] = set()
    for rel, path in hip_side.items():
        if rel.split("/")[0] in SAME_PATH_LIBRARIES:
            visible |= _names(path, SAME_PATH_LIBRARIES[rel.split("/")[0]])
    pairs: dict[str, str] = {}
    for rel in sorted(cuda_side):
        namespace = _public(rel)
        hip_path = next((root / rel for root in hip_roots if (root / rel).is_file()), None)
        if not namespace or rel in hip_side or hip_path is None:
            continue
        for name in sorted((_names(cuda_side[rel], namespace) & _names(hip_path, namespace)) - visible):
            pairs.setdefault(name, rel)
    return " ".join(f"{name}={rel}" for name, rel in sorted(pairs.items()))
