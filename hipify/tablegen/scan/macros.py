"""Macros from #define lines, and the include guard of a header."""

from __future__ import annotations

import re

from .decl import Decl
from .marks import has_deprecation_mark
from .vocabulary import IDENT

_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)(\()?(.*)$", re.DOTALL)
_IFNDEF = re.compile(r"#\s*(?:ifndef\s+([A-Za-z_]\w*)|if\s+!\s*defined\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*$)")
_OTHER = re.compile(r"#\s*(if|ifdef|elif|else|endif|include|pragma|undef|error)\b")
_GUARD_NAME = re.compile(r"_H(PP)?_*$|_H_|_INCLUDED", re.IGNORECASE)


def macro_decls(directives: list[str]) -> list[Decl]:
    out: list[Decl] = []
    for line in directives:
        m = _DEFINE.match(line)
        if not m:
            continue
        name, is_fn, body = m.group(1), m.group(2), m.group(3).strip()
        if is_fn:
            body = body.split(")", 1)[1].strip() if ")" in body else ""
        out.append(
            Decl(
                name,
                "macro",
                namespace="",
                alias_of=body if IDENT.fullmatch(body) else "",
                expansion=" ".join(body.split()),
                deprecated=has_deprecation_mark(IDENT.findall(body)) and not name.upper().endswith("DEPRECATED"),
            )
        )
    return out


_PARAMS = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)\(([^)]*)\)(.*)$", re.DOTALL)


def declaring_macros(directives: list[str]) -> dict[str, tuple[tuple[str, ...], str]]:
    """Function-like macros whose replacement declares something (holds a ';' or a body): name -> (parameters,
    replacement). HIP builds make_<vector> helpers, hipRAND state types and MIOpen's handle types through them
    (`MIOPEN_DECLARE_OBJECT(miopenHandle);`). The first definition wins (#if branches spell one thing twice)."""
    out: dict[str, tuple[tuple[str, ...], str]] = {}
    for line in directives:
        m = _PARAMS.match(line)
        if not m or m.group(1) in out:
            continue
        params = tuple(p.strip() for p in m.group(2).split(",") if p.strip())
        body = m.group(3).strip()
        if (";" in body or "{" in body) and all(IDENT.fullmatch(p) for p in params):
            out[m.group(1)] = (params, body)
    return out


_PASTE = re.compile(r"\s*##\s*")


def expand(params: tuple[str, ...], body: str, args: list[str]) -> str:
    """The replacement with each parameter replaced by its argument and `##` pastes joined."""
    values = dict(zip(params, args, strict=False))
    text = IDENT.sub(lambda m: values.get(m.group(), m.group()), body)
    return _PASTE.sub("", text)


def include_guard(directives: list[str]) -> str:
    """X when the file's first conditional is `#ifndef X`, directly followed by `#define X`, and X is named like a
    guard ('' for a `#pragma once` file; `#ifndef CUBLASAPI` is configuration)."""
    seen: list[tuple[str, str]] = []  # (directive, first word) in order
    for line in directives:
        m = _DEFINE.match(line)
        if m:
            seen.append(("define", m.group(1)))
            continue
        s = line.strip()
        mm = _IFNDEF.match(s)
        if mm:
            seen.append(("ifndef", mm.group(1) or mm.group(2)))
        elif _OTHER.match(s):
            seen.append(("other", s))
    for k, (kind, text) in enumerate(seen):
        if kind == "other" and text.startswith("#include"):
            continue
        if kind == "other" and re.match(r"#\s*pragma\s+once", text):
            return ""
        if kind == "other" and text.startswith("#pragma"):
            continue
        if kind == "ifndef" and k + 1 < len(seen) and seen[k + 1] == ("define", text) and _GUARD_NAME.search(text):
            return text
        return ""
    return ""
