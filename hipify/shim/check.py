"""``hipify-py shim --check``: is the committed header (or include folder) what the sources need now?

The header is written again in memory and compared byte for byte; where it differs, the definitions are compared
name by name to say why: a CUDA name the sources use that the header does not cover (named at its first use, in
gcc's form), one it covers otherwise than the table now says, one no source uses any more, a CUDA header the
sources include that has no stand-in.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..lexing.lexer import lex
from ..model import LineIndex
from ..reports.findings import shown_path
from .plan import GENERATED, ShimPlan

DRIFT = "HPY123"
_DEFINE = re.compile(r"^#define ([A-Za-z_]\w*)\b.*$", re.MULTILINE)
_INCLUDE_FOR = re.compile(r"^#include <([^>]+)>  // (.+)$", re.MULTILINE)


@dataclass(frozen=True)
class Drift:
    missing_file: str = ""  # the header or folder does not exist
    uncovered: tuple[tuple[str, str], ...] = ()  # (CUDA name or header, where the sources first use it)
    wrong: tuple[str, ...] = ()  # names it defines otherwise than the table now says
    stale: tuple[str, ...] = ()  # names or headers it covers that no source uses any more
    other: tuple[str, ...] = field(default_factory=tuple)  # files that differ in anything else

    @property
    def clean(self) -> bool:
        return not (self.missing_file or self.uncovered or self.wrong or self.stale or self.other)

    def lines(self) -> list[str]:
        out = [f"{where}: error: {name} is used, but the header does not cover it [{DRIFT}]" for name, where in
               self.uncovered]  # fmt: skip
        out += [
            f"{name}: error: the header covers it otherwise than the table now says [{DRIFT}]" for name in self.wrong
        ]
        out += [f"{name}: note: the header covers it, but no source uses it any more [{DRIFT}]" for name in self.stale]
        return out

    def summary(self) -> str:
        if self.missing_file:
            return f"does not exist ({self.missing_file})"
        parts = []
        if self.uncovered:
            parts.append(f"does not cover {_count(len(self.uncovered), 'CUDA name')} the sources use "
                         f"({', '.join(n for n, _ in self.uncovered[:8])}{', ...' if len(self.uncovered) > 8 else ''})")  # fmt: skip
        if self.wrong:
            parts.append(
                f"covers {_count(len(self.wrong), 'name')} otherwise than the table says ({', '.join(self.wrong[:8])})"
            )
        if self.stale:
            parts.append(f"covers {_count(len(self.stale), 'name')} no source uses ({', '.join(self.stale[:8])})")
        if self.other and not parts:
            parts.append(f"differs from what `hipify-py shim` writes ({', '.join(self.other[:8])})")
        return "; ".join(parts)


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def drift_of_header(
    path: Path, expected: str, plan: ShimPlan, texts: Mapping[str, str], cuda_names: Container[str]
) -> Drift:
    current = _read(path)
    if current is None:
        return Drift(missing_file=str(path))
    if current == expected:
        return Drift()
    return _compare({path.name: current}, {path.name: expected}, plan, texts, cuda_names)


def drift_of_folder(
    folder: Path, expected: Mapping[str, str], plan: ShimPlan, texts: Mapping[str, str], cuda_names: Container[str]
) -> Drift:
    if not folder.is_dir():
        return Drift(missing_file=str(folder))
    current: dict[str, str] = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        text = _read(path)
        if text is not None and GENERATED in text[:400]:
            current[path.relative_to(folder).as_posix()] = text
    if current == dict(expected):
        return Drift()
    return _compare(current, expected, plan, texts, cuda_names)


def _compare(
    current: Mapping[str, str],
    expected: Mapping[str, str],
    plan: ShimPlan,
    texts: Mapping[str, str],
    cuda_names: Container[str],
) -> Drift:
    """Name by name (CUDA names only: the header's own macros, and the compatibility code's, are not coverage)."""
    old = {n: t for n, t in _definitions(current.values()).items() if n in cuda_names}
    new = {n: t for n, t in _definitions(expected.values()).items() if n in cuda_names}
    old_headers = _stand_ins(current)
    new_headers = _stand_ins(expected)
    uncovered = [(n, _first_use(n, plan, texts)) for n in sorted(set(new) - set(old))]
    uncovered += [(h, _first_include(h, texts)) for h in sorted(new_headers - old_headers)]
    wrong = sorted(n for n in set(new) & set(old) if new[n] != old[n])
    stale = sorted((set(old) - set(new)) | (old_headers - new_headers))
    other = sorted(name for name in set(current) | set(expected) if current.get(name) != expected.get(name))
    return Drift(uncovered=tuple(uncovered), wrong=tuple(wrong), stale=tuple(stale), other=tuple(other))


def _definitions(texts: Iterable[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for text in texts:
        for m in _DEFINE.finditer(text):
            found.setdefault(m.group(1), m.group(0))
    return found


def _stand_ins(files: Mapping[str, str]) -> set[str]:
    """The CUDA headers stood for: the folder's files named like them, a single header's include comments."""
    found = {name for name, text in files.items() if "stands for CUDA's" in text[:400]}
    for text in files.values():
        for m in _INCLUDE_FOR.finditer(text):
            found.update(h.strip() for h in m.group(2).split(","))
    return found


def _first_use(name: str, plan: ShimPlan, texts: Mapping[str, str]) -> str:
    """``path:line:col`` of the first use of ``name`` in code (not a comment, not a string)."""
    pattern = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    for path in plan.uses.get(name, ()) or sorted(texts):
        text = texts.get(path, "")
        m = pattern.search(lex(text).masked) if name in text else None
        if m is not None:
            line, col = LineIndex.of(text).line_col(m.start())
            return f"{shown_path(path)}:{line}:{col}"
    return "?"


def _first_include(header: str, texts: Mapping[str, str]) -> str:
    pattern = re.compile(rf"#\s*include\s*[<\"]{re.escape(header)}[>\"]")
    for path in sorted(texts):
        m = pattern.search(texts[path])
        if m is not None:
            line, col = LineIndex.of(texts[path]).line_col(m.start())
            return f"{shown_path(path)}:{line}:{col}"
    return "?"


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
