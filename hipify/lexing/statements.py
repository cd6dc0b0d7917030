"""The statements of a function body and the member functions of a class body, found in masked text.

What a translation leaves out where code needs an API HIP lacks must be as small as it can be
(``rewrite/rules/unavailable.py``): the one statement that calls the API, else the body of the one function
holding it, never the class or the header around it. This module finds those units; it never decides.
Linear in the size of the span read.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from .declarations import Declaration, top_level_declarations

Span = tuple[int, int]

_FIRST_WORD = re.compile(r"\s*([A-Za-z_]\w*)")
_PUNCTUATION = re.compile(r"[()\[\]{};]")
_CONTROL = frozenset(
    ("if", "else", "for", "while", "do", "switch", "case", "default", "goto", "try", "catch", "break", "continue")
)
_NOT_TYPES = frozenset(("return", "throw", "co_return", "co_yield", "delete", "new", "sizeof", "typeid"))


@dataclass(frozen=True)
class Statement:
    span: Span  # from its first character to one past its ';'
    kind: str  # "expression", "return", "declaration" or "control" (a statement a compiler reads around others)


def body_of(masked: str, decl: Declaration) -> Span | None:
    """The inside of a definition's body: between its ``{`` and its closing ``}`` (None without a body)."""
    if decl.head_end >= decl.end or decl.head_end >= len(masked) or masked[decl.head_end] != "{":
        return None
    close = masked.rfind("}", decl.head_end, decl.end)
    return (decl.head_end + 1, close) if close > decl.head_end else None


def statements(masked: str, body: Span, directives: list[Span]) -> list[Statement]:
    """The statements of ``body`` that end with a ``;`` outside brackets, at any block depth, each with its kind.
    A statement a directive line cuts through is left out (it is not one unit of code)."""
    return [_statement(masked, begin, semicolon) for begin, semicolon in _ends(masked, body, directives)]


def _statement(masked: str, begin: int, semicolon: int) -> Statement:
    return Statement((_skip_blanks(masked, begin, semicolon), semicolon + 1), _kind(masked, begin, semicolon))


def _ends(masked: str, body: Span, directives: list[Span]) -> list[tuple[int, int]]:
    """(where each statement of ``statements`` begins, blanks included; its ``;``), in order."""
    out: list[tuple[int, int]] = []
    start, end = body
    begin = start
    depth = 0  # () and [] (a lambda's braces inside a call stay in the statement)
    i = start
    d = 0
    ds = sorted(directives)
    while d < len(ds) and ds[d][1] <= start:
        d += 1
    cut = False
    while i < end:
        if d < len(ds) and ds[d][0] <= i:
            cut = cut or bool(masked[begin : ds[d][0]].strip())
            i = max(i, ds[d][1])
            if not cut:
                begin = i
            d += 1
            continue
        # Only brackets and ';' matter: jump to the next one (before the next directive), not character by character.
        limit = min(end, ds[d][0]) if d < len(ds) else end
        found = _PUNCTUATION.search(masked, i, limit)
        if found is None:
            i = limit
            continue
        i = found.start()
        c = masked[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth = max(depth - 1, 0)
        elif depth == 0 and c in "{}":
            begin, cut = i + 1, False  # a block opens or closes: what came before was its head
        elif depth == 0 and c == ";":
            if not cut:
                out.append((begin, i))
            begin, cut = i + 1, False
        i += 1
    return out


def _skip_blanks(masked: str, start: int, end: int) -> int:
    while start < end and masked[start].isspace():
        start += 1
    return start


def _kind(masked: str, start: int, end: int) -> str:
    m = _FIRST_WORD.match(masked, start, end)
    if m is None:
        return "expression"
    word = m.group(1)
    rest = masked[m.end() : end].lstrip()
    if word in _CONTROL or (rest.startswith(":") and not rest.startswith("::")):
        return "control"  # a label, or a statement whose meaning depends on what surrounds it
    if word == "return":
        return "return"
    if word in _NOT_TYPES:
        return "expression"
    # ``Type name = ...`` / ``Type name(...)`` / ``auto [a, b] = ...``: two words (or a word and a declarator)
    # before the first ``=`` or ``(`` declare a name that later statements may use.
    head_end = end
    for mark in ("=", "(", "{"):
        at = masked.find(mark, start, end)
        if at >= 0:
            head_end = min(head_end, at)
    head = masked[start:head_end]
    words = re.findall(r"[A-Za-z_]\w*", head.replace("::", " "))
    if len(words) >= 2 or "[" in head:
        return "declaration"
    return "expression"


def member_functions(masked: str, decl: Declaration, directives: list[Span]) -> list[Declaration]:
    """The member function definitions of a class, struct or union definition (nested classes' too), with offsets
    into ``masked``."""
    body = body_of(masked, decl)
    if body is None:
        return []
    start, end = body
    inner = [(max(s, start) - start, min(e, end) - start) for s, e in directives if s < end and e > start]
    found: list[Declaration] = []
    for member in top_level_declarations(masked[start:end], inner):
        shifted = Declaration(
            member.start + start,
            member.end + start,
            member.head_end + start,
            member.kind,
            member.name,
            member.name_at + start if member.name_at >= 0 else -1,
            member.in_namespace,
        )
        if shifted.kind == "function":
            found.append(shifted)
        elif shifted.kind == "type":
            found.extend(member_functions(masked, shifted, directives))
    return found


@dataclass(frozen=True)
class LeftOut:
    """The smallest unit that holds a use of an API HIP lacks: one statement, or the inside of a function's body."""

    span: Span  # the statement (to its ';'), or the body's code between its braces, blanks trimmed
    whole_body: bool
    function: Declaration  # the function (or member function) it belongs to


def has_smaller_units(masked: str, decl: Declaration, uses: list[int], directives: list[Span]) -> bool:
    """``smallest_units(...) is not None``: every use lies in a function body of ``decl`` (found without splitting
    the bodies into statements)."""
    functions = [decl] if decl.kind == "function" else member_functions(masked, decl, directives)
    bodies = [b for f in functions if (b := body_of(masked, f)) is not None]
    return all(any(b[0] <= at < b[1] for b in bodies) for at in uses)


def smallest_units(masked: str, decl: Declaration, uses: list[int], directives: list[Span]) -> list[LeftOut] | None:
    """The statements (or function bodies) of ``decl`` that hold ``uses`` (offsets), each unit once, in file
    order; None where a use is outside every function body (a parameter's type, a data member, a typedef): there
    no smaller unit than the declaration can go."""
    functions = [decl] if decl.kind == "function" else member_functions(masked, decl, directives)
    wanted: dict[int, tuple[Declaration, set[Span] | None]] = {}  # function start -> its statements (None: body)
    # function start -> (its body's statements' ends, and beginnings): found once for all its uses, and only the
    # statement holding a use is read further
    split: dict[int, tuple[list[int], list[int]]] = {}
    for at in uses:
        function = next((f for f in functions if (b := body_of(masked, f)) is not None and b[0] <= at < b[1]), None)
        if function is None:
            return None
        body = body_of(masked, function)
        assert body is not None
        _, spans = wanted.setdefault(function.start, (function, set()))
        if spans is None:
            continue
        if function.start not in split:
            ends = _ends(masked, body, directives)
            split[function.start] = ([semicolon for _, semicolon in ends], [begin for begin, _ in ends])
        semicolons, begins = split[function.start]
        k = bisect.bisect_left(semicolons, at)  # the first statement ending at or after the use
        holding = _statement(masked, begins[k], semicolons[k]) if k < len(semicolons) else None
        if holding is not None and not holding.span[0] <= at < holding.span[1]:
            holding = None
        if holding is None or holding.kind not in ("expression", "return"):
            wanted[function.start] = (function, None)  # a declaration later code reads, a condition: the body
        else:
            spans.add(holding.span)
    out: list[LeftOut] = []
    for function, spans in wanted.values():
        if spans is None:
            body = body_of(masked, function)
            assert body is not None
            start = _skip_blanks(masked, *body)
            end = body[1]
            while end > start and masked[end - 1].isspace():
                end -= 1
            out.append(LeftOut((start, end), True, function))
        else:
            out.extend(LeftOut(span, False, function) for span in sorted(spans))
    return sorted(out, key=lambda unit: unit.span)
