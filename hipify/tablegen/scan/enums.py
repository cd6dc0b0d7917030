"""The constants of an enum body, with their values where the initialisers are literals."""

from __future__ import annotations

import re

from .decl import Decl
from .marks import has_deprecation_mark
from .tokens import Token, split_top_level

_OPEN = frozenset("([{")
_CLOSE = frozenset(")]}")
_LITERAL = re.compile(r"(-?)(0[xX][0-9a-fA-F]+|\d+)[uUlL]*(?:<<(\d+))?")


def int_value(tokens: list[str]) -> int | None:
    """The value of a literal enum initialiser (``5``, ``0x10``, ``-1``, ``1 << 3``); None otherwise."""
    text = "".join(tokens).rstrip("uUlL")
    m = _LITERAL.fullmatch(text)
    if not m:
        return None
    number = int(m.group(2), 0) * (-1 if m.group(1) else 1)
    return number << int(m.group(3)) if m.group(3) else number


def enum_constants(body: list[Token], parent: str, namespace: str) -> list[Decl]:
    """The constants between an enum's braces (``body`` excludes them); a constant without an initialiser is the
    previous value plus one, unknown after a non-literal initialiser."""
    out: list[Decl] = []
    value: int | None = -1
    for item in split_top_level(body, _OPEN, _CLOSE):
        idents = [t for t in item if t.kind == "ident"]
        if not idents:
            continue
        eq = next((k for k, t in enumerate(item) if t.text == "="), len(item))
        head = [t.text for t in item[:eq]]
        if eq < len(item):
            value = int_value([t.text for t in item[eq + 1 :]])
        else:
            value = value + 1 if value is not None else None
        out.append(
            Decl(
                idents[0].text,
                "enum_constant",
                parent=parent,
                namespace=namespace,
                deprecated=has_deprecation_mark(head[1:]),
                value="" if value is None else str(value),
            )
        )
    return out
