"""Member templates named in a dependent scope without ``template`` (``vec_cast<T, S>::cast<N>(d, s)``): nvcc
accepts them, clang reads comparisons. Where the clang engine's AST holds that reading, or clang reports the missing
keyword, the offsets of the names (``FileFacts.dependent_templates``; ``rewrite/rules/dependent_templates.py`` adds the
keyword)."""

from __future__ import annotations

import re
from collections.abc import Sequence

import clang.cindex as ci

from ..lexing.facts import Region
from ..lexing.regions import RegionMap
from .parsing import Parsed
from .token_positions import ByteToChar, TokenPositions

# A name after ``::``, ``.`` or ``->`` followed by ``<``: where a member template may be named.
_MEMBER_THEN_ANGLE = re.compile(r"(?:::|\.|->)[ \t\r\n]*([A-Za-z_]\w*)[ \t\r\n]*<(?![<=])")
_DEPENDENT_NAMES = (ci.CursorKind.DECL_REF_EXPR, ci.CursorKind.MEMBER_REF_EXPR)
_BINARY = ci.CursorKind.BINARY_OPERATOR
MISSING_TEMPLATE = "missing 'template' keyword prior to dependent template name"
_OPENERS = (b"(", b"[", b"{")
_CLOSERS = (b")", b"]", b"}")


def missing_template_keywords(parsed: Parsed, to_char: ByteToChar) -> list[int]:
    """Where clang said so while parsing (``W<T>::get<N>()``, whose empty parentheses no comparison takes): the
    offsets of the names, in the main file."""
    return [
        to_char(e.location.offset)
        for e in parsed.errors
        if e.spelling.startswith(MISSING_TEMPLATE)
        and e.location.file is not None
        and e.location.file.name == parsed.path
    ]


def dependent_templates(
    masked: str, positions: TokenPositions, regions: RegionMap, reported: Sequence[int] = ()
) -> tuple[int, ...]:
    """Offsets of names that need ``template`` before them: ``vec_cast<T, S>::cast<N>(d, s)`` in a template, where
    ``vec_cast<T, S>`` depends on its parameters. nvcc takes ``cast`` for the member template it is; clang, as the
    standard says, reads ``(vec_cast<T, S>::cast < N) > (d, s)`` and fails when the template is instantiated. The
    AST shows that reading: the name is a dependent reference (no declaration behind it, no spelling), the ``<``
    and the ``>`` closing its arguments are binary operators, and a parenthesized expression follows, which no one
    writes as a comparison."""
    found = [offset for offset in reported if regions.of(offset) is Region.CODE]
    for m in _MEMBER_THEN_ANGLE.finditer(masked):
        start = m.start(1)
        if regions.of(start) is not Region.CODE:
            continue
        name = positions.at(start)
        if name < 0:
            continue
        cursor = positions.cursor(name)
        if cursor.kind not in _DEPENDENT_NAMES or cursor.spelling:
            continue
        opening = positions.next_significant(name)
        if opening < 0 or not positions.is_punct(opening, b"<") or not _comparison(positions.cursor(opening), "<"):
            continue
        closing = _closing_angle(positions, opening)
        if closing < 0 or not _comparison(positions.cursor(closing), ">"):
            continue
        after = positions.next_significant(closing)
        if after >= 0 and positions.is_punct(after, b"("):
            found.append(start)
    return tuple(sorted(set(found)))


def _comparison(cursor: ci.Cursor, operator: str) -> bool:
    """Is an angle bracket's token read as a comparison: a built-in one, or a call of ``operator<`` (an overloaded
    operator in scope makes the comparison an unresolved call, whose token names the operator)?"""
    return cursor.kind == _BINARY or cursor.spelling == "operator" + operator


def _closing_angle(positions: TokenPositions, opening: int) -> int:
    """The ``>`` token closing the angle bracket at token ``opening`` (outside parentheses), or -1."""
    angles = 1
    depth = 0
    index = opening
    while True:
        index = positions.next_significant(index)
        if index < 0 or positions.is_punct(index, b";"):
            return -1
        if any(positions.is_punct(index, p) for p in _OPENERS):
            depth += 1
        elif any(positions.is_punct(index, p) for p in _CLOSERS):
            depth -= 1
            if depth < 0:
                return -1
        elif depth == 0 and positions.is_punct(index, b"<"):
            angles += 1
        elif depth == 0 and positions.is_punct(index, b">"):
            angles -= 1
            if angles == 0:
                return index
        elif depth == 0 and positions.is_punct(index, b">>"):
            return -1  # a shift, or two templates closing: not the shape read here
