"""The types of a function's parameters, spelled one canonical way, to compare a definition in user code with a
declaration in a vendor header: ``float *addr, float value`` -> ``("float*", "float")``.

Parameter names, defaults, top-level ``const`` and restrict qualifiers go; the ways of writing one fundamental type
become one (``unsigned long long int`` -> ``unsigned long long``, ``unsigned`` -> ``unsigned int``). Anything that is
not a plain type with pointers or a reference (templates, arrays, function pointers) makes the list unknown (None):
such a definition is never taken for another.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_TOKEN = re.compile(r"[A-Za-z_$][\w$]*|&&|\S")
_IGNORED = frozenset(
    ("__restrict__", "__restrict", "restrict", "struct", "class", "union", "enum", "typename", "register")
)
_NOT_PLAIN = frozenset("()[]<>:.")
_INTEGER_WORDS = frozenset(("signed", "unsigned", "short", "long", "int", "char"))
_TYPE_WORDS = _INTEGER_WORDS | {"float", "double", "void", "bool", "const", "volatile"}


def parameter_types(parameters: str) -> tuple[str, ...] | None:
    """The canonical types of a parameter list's text (without its parentheses); None when one is not plain."""
    parts = _split_commas(parameters)
    if parts is None:
        return None
    if len(parts) == 1 and parts[0].strip() in ("", "void"):
        return ()
    out = []
    for part in parts:
        spelled = _parameter_type(part)
        if spelled is None:
            return None
        out.append(spelled)
    return tuple(out)


def parameter_names(parameters: str) -> tuple[str, ...] | None:
    """The names of a parameter list's parameters ('' for an unnamed one); None when a type is not plain."""
    parts = _split_commas(parameters)
    if parts is None or parameter_types(parameters) is None:
        return None
    if len(parts) == 1 and parts[0].strip() in ("", "void"):
        return ()
    names = []
    for part in parts:
        tokens = [t for t in _TOKEN.findall(part.split("=", 1)[0]) if t not in _IGNORED]
        last = tokens[-1]
        named = len(tokens) > 1 and (last[0].isalpha() or last[0] in "_$") and last not in _TYPE_WORDS
        names.append(last if named else "")
    return tuple(names)


def split_top_level(text: str) -> list[str]:
    """``text`` cut at its commas outside brackets."""
    depth = 0
    parts, start = [], 0
    for i, c in enumerate(text):
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _split_commas(text: str) -> list[str] | None:
    balanced = sum(map(text.count, "(<[{")) == sum(map(text.count, ")>]}"))
    return split_top_level(text) if balanced else None


def _parameter_type(text: str) -> str | None:
    tokens = [t for t in _TOKEN.findall(text.split("=", 1)[0]) if t not in _IGNORED]
    if not tokens or any(t in _NOT_PLAIN or t == "..." for t in tokens):
        return None
    # The parameter's name: a last word after a type word, a '*' or a '&' (``float value``, ``float *addr``).
    last = tokens[-1]
    if len(tokens) > 1 and (last[0].isalpha() or last[0] in "_$") and last not in _TYPE_WORDS:
        tokens = tokens[:-1]
    indirection = [k for k, t in enumerate(tokens) if t in ("*", "&", "&&")]
    first = indirection[0] if indirection else len(tokens)
    words = [t for t in tokens[:first] if t not in ("const", "volatile")]
    if not words or not all(w[0].isalpha() or w[0] in "_$" for w in words):
        return None
    # What a pointer or reference points to may be const or volatile; a top-level qualifier is no part of the type.
    pointee = "".join(f"{q} " for q in ("const", "volatile") if indirection and q in tokens[:first])
    suffix = "".join(t for t in tokens[first:] if t in ("*", "&", "&&"))
    return pointee + _fundamental(words) + suffix


def _fundamental(words: Sequence[str]) -> str:
    """One spelling for the ways of writing an integer type; other names as written."""
    if not set(words) <= _INTEGER_WORDS:
        return " ".join(words)
    unsigned = "unsigned " if "unsigned" in words else ""
    if "char" in words:
        return ("signed " if "signed" in words else unsigned) + "char"
    if "short" in words:
        return unsigned + "short"
    longs = words.count("long")
    if longs:
        return unsigned + ("long long" if longs > 1 else "long")
    return unsigned + "int"
