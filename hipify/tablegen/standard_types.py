"""CUDA typedefs of a standard C type (``typedef int cusolver_int_t;``, ``typedef uint64_t cuuint64_t;``): where HIP
has no name of its own for one, the translation writes the standard type itself, which is what CUDA defines the
name to be. Read from the family's header text, since a typedef's declaration records one word of its type."""

from __future__ import annotations

import re
from pathlib import Path

from .headers import header_files
from .target import Target

_STANDARD = (
    r"(?:(?:unsigned|signed)\s+)?(?:char|short|int|long|long\s+long)(?:\s+int)?|unsigned|signed|float|double"
    r"|size_t|ptrdiff_t|u?int(?:8|16|32|64)_t"
)
_TYPEDEF = re.compile(rf"^[ \t]*typedef\s+({_STANDARD})\s+([A-Za-z_]\w*)\s*;", re.MULTILINE)


def standard_typedefs(root: Path, patterns: tuple[str, ...]) -> dict[str, str]:
    """Name -> the standard type the family's headers define it as; a name defined as two different standard
    types (one per platform branch) is left out, a non-standard branch (``unsigned __int32`` for Windows) ignored."""
    found: dict[str, set[str]] = {}
    for _rel, path in header_files(root, patterns):
        for m in _TYPEDEF.finditer(path.read_text(encoding="utf-8", errors="replace")):
            found.setdefault(m.group(2), set()).add(" ".join(m.group(1).split()))
    return {name: next(iter(types)) for name, types in sorted(found.items()) if len(types) == 1}


def standard_target(name: str, standard: str) -> Target:
    return Target(
        standard,
        "supported",
        source="standard-type",
        note=f"CUDA defines {name} as {standard}; HIP has no name of its own for it",
    )
