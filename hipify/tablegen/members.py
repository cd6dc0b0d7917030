"""Members of CUDA structs that HIP's counterpart struct lacks (``Row.hip_lacks_members``).

A struct row pairs CUDA's type with HIP's (``cudaMemPoolProps`` -> ``hipMemPoolProps``); a program that reads or
sets a member the HIP struct does not declare stops compiling there, so the translation reports it at its use.
Both bodies are read from the vendors' headers: the member names of the struct (``struct X {...}``,
``typedef struct T {...} X``), members of anonymous nested structs and unions counted as the outer struct's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from functools import cache
from pathlib import Path

from ..knowledge.table import Row

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*|^[ \t]*#[^\n]*(?:\\\n[^\n]*)*", re.DOTALL | re.MULTILINE)
_WORD = re.compile(r"[A-Za-z_]\w*")
# Words of a member declaration that are not its name.
_NOT_NAMES = frozenset(("const", "volatile", "unsigned", "signed", "struct", "union", "enum", "alignas", "__align__"))


@cache
def _code(path: Path) -> str:
    return _COMMENT.sub(" ", path.read_text(errors="replace"))


def _close(text: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return -1


_HEAD = re.compile(r"\b(typedef\s+)?(?:struct|union)\s+(?:__\w+(?:\([^)]*\))?\s+)*([A-Za-z_]\w*)?\s*(?::[^{;]*)?\{")
_ALIAS = re.compile(r"\btypedef\s+(?:struct\s+|union\s+)?([A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*;")


def struct_members(paths: Iterable[Path]) -> dict[str, frozenset[str]]:
    """Struct name (its tag, its typedef names, plain aliases of them) -> its member names, for every struct the
    files define with a body (the first definition of a name wins)."""
    found: dict[str, frozenset[str]] = {}
    aliases: list[tuple[str, str]] = []
    for path in paths:
        text = _code(path)
        for m in _HEAD.finditer(text):
            close = _close(text, m.end() - 1)
            if close < 0:
                continue
            members = frozenset(_members(text[m.end() : close]))
            names = [m.group(2)] if m.group(2) else []
            if m.group(1):
                end = text.find(";", close)
                names += _WORD.findall(text[close + 1 : end if end > 0 else close + 1])
            for name in names:
                found.setdefault(name, members)
        aliases += _ALIAS.findall(text)
    for target, alias in aliases:
        if target in found:
            found.setdefault(alias, found[target])
    return found


_ACCESS = re.compile(r"\b(?:public|private|protected)\s*:(?!:)")
_NOT_MEMBERS = re.compile(r"^\s*(?:typedef|using|friend|static_assert|template|static)\b")
_FUNCTION_POINTER = re.compile(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)")


def _members(body: str) -> Iterable[str]:
    """Member names of a struct body: each declaration's declarators, anonymous nested struct and union bodies
    flattened; member functions (declared or defined) are not members here."""
    body = _ACCESS.sub(" ", body)
    i = 0
    while i < len(body):
        brace = body.find("{", i)
        semi = body.find(";", i)
        if semi < 0:
            return
        if 0 <= brace < semi:
            close = _close(body, brace)
            if close < 0:
                return
            head = body[i:brace]
            if not re.search(r"\b(?:struct|union)\b", head):  # a member function's body (or an enum's)
                i = close + 1
                continue
            end = body.find(";", close)
            end = len(body) if end < 0 else end
            after = body[close + 1 : end].strip()
            if after:
                yield from _declarators(after)
            else:
                yield from _members(body[brace + 1 : close])
            i = end + 1
            continue
        statement = body[i:semi]
        i = semi + 1
        if _NOT_MEMBERS.match(statement):
            continue
        if "(" in statement:
            pointer = _FUNCTION_POINTER.search(statement)
            if pointer:
                yield pointer.group(1)
            continue
        yield from _declarators(statement, skip_type=True)


def _declarators(text: str, skip_type: bool = False) -> Iterable[str]:
    """``int a, *b, c[4] : 3`` -> a, b, c."""
    parts = re.sub(r"\[[^\]]*\]|:[^,]*|=[^,]*", " ", text).split(",")
    for n, part in enumerate(parts):
        words = [w for w in _WORD.findall(part) if w not in _NOT_NAMES]
        if not words or (skip_type and n == 0 and len(words) < 2):
            continue
        yield words[-1]


def with_missing_members(claimed: dict[str, Row], cache: Path, release: str) -> dict[str, Row]:
    """Struct rows of the runtime and driver with the members their HIP struct (of ``release``) lacks."""
    cuda = struct_members(sorted((cache / "cuda" / "cu13" / "toolkit").glob("*.h")))
    hip = struct_members(sorted((cache / "hip" / release / "libamdhip64-dev" / "hip").glob("*.h")))
    out = dict(claimed)
    for name, row in claimed.items():
        if row.kind != "type" or row.hip_status not in ("supported", "deprecated") or not row.hip:
            continue
        ours, theirs = cuda.get(name), hip.get(row.hip)
        if ours and theirs and ours - theirs:
            out[name] = replace(row, hip_missing_members=" ".join(sorted(ours - theirs)))
    return out
