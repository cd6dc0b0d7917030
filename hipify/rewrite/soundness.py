"""The translator's check of what it left out: a left-out unit never takes code around it with it.

Code that needs an API HIP lacks is left out behind ``#if defined(HIPIFY_ENABLE_<api>)`` (``rules/unavailable``): a
statement, or the inside of one function's body. A unit whose ``#endif`` lands elsewhere (a body whose braces were
misread across ``#if`` branches, an ``#endif`` that closes another chain) compiles and silently deletes the code in
between: a dozen definitions of a header, gone without an error. So after the splice each translation is read
again, and the file fails (the run goes on) where:

- a left-out unit's ``#if`` is not closed by its own ``#endif`` at the same preprocessor nesting, or its ``#if`` and
  ``#endif`` are not inside the body of one top-level definition;
- a top-level declaration of the original is missing from the translation (whole declarations are disabled by
  wrapping them, which keeps them: they are counted too).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..lexing.conditionals import LEFT_OUT_PREFIX
from ..lexing.declarations import Declaration, declarations_of, top_level_declarations
from ..lexing.lexer import lex
from ..lexing.shared import lexing_of
from ..model import Edit, Span

# The #else branch of a left-out unit stops the program with this marker (rules/unavailable.py writes it).
UNIT_MARKER = "HIP lacks it (HPY010)"
_DIRECTIVE = re.compile(r"[ \t]*#[ \t]*([A-Za-z_]+)(.*)")
_OPEN = frozenset(("if", "ifdef", "ifndef"))
_BRANCH = frozenset(("elif", "else", "elifdef", "elifndef"))
_BRACES = re.compile(r"[{}]")
_LEFT_OUT_IF = re.compile(rf"\s*defined\s*\(\s*({LEFT_OUT_PREFIX}\w+)\s*\)\s*$")


@dataclass(frozen=True)
class _Line:
    start: int
    end: int
    keyword: str
    argument: str


def check_left_out(original: str, translated: str, edits: Iterable[Edit]) -> str:
    """What is unsound about the left-out code of ``translated`` ("" when nothing is)."""
    renamed = {original[e.start : e.end] for e in edits if e.start < e.end}
    lexed = lex(translated)
    lines = _directives(translated, lexed.directives)
    declarations = top_level_declarations(lexed.masked, [(d.start, d.end) for d in lines])
    problem = _units_problem(translated, lexed.masked, lines, declarations)
    if problem:
        return problem
    return _lost_declaration(original, declarations, renamed)


def _directives(text: str, spans: Sequence[Span]) -> list[_Line]:
    out = []
    for start, end in spans:
        m = _DIRECTIVE.match(text, start, end)
        if m is not None:
            out.append(_Line(start, end, m.group(1), m.group(2)))
    return out


def _units_problem(text: str, masked: str, lines: list[_Line], declarations: list[Declaration]) -> str:
    """The first left-out unit that crosses a preprocessor branch or leaves its function ("" when none)."""
    stack: list[tuple[_Line, str | None, bool]] = []  # (opening line, left-out condition or None, seen #else)
    for line in lines:
        if line.keyword in _OPEN:
            m = _LEFT_OUT_IF.match(line.argument) if line.keyword == "if" else None
            stack.append((line, m.group(1) if m else None, False))
        elif line.keyword in _BRANCH and stack:
            opening, name, _ = stack[-1]
            stack[-1] = (opening, name, True)
        elif line.keyword == "endif":
            if not stack:
                return f"line {_line_of(text, line.start)}: an #endif closes no #if"
            opening, name, _ = stack.pop()
            if name is None or not _is_unit(text, opening, line):
                continue
            if name not in line.argument:
                return (
                    f"line {_line_of(text, opening.start)}: the code left out for {name} is closed by another "
                    f"chain's #endif (line {_line_of(text, line.start)})"
                )
            inner = [d for d in lines if opening.end <= d.start < line.start]
            if not all(_balanced(masked, opening.end, line.start, inner, first) for first in (True, False)):
                return (
                    f"line {_line_of(text, opening.start)}: the code left out for {name} closes more blocks than it "
                    f"opens, or opens more than it closes (to line {_line_of(text, line.start)})"
                )
            owner = _owner(declarations, opening.start)
            if owner is None or owner is not _owner(declarations, line.start):
                return (
                    f"line {_line_of(text, opening.start)}: the code left out for {name} runs out of the definition it "
                    f"belongs to (to line {_line_of(text, line.start)})"
                )
        elif line.keyword in _BRANCH:
            return f"line {_line_of(text, line.start)}: an #{line.keyword} belongs to no #if"
    return ""


def _balanced(masked: str, start: int, end: int, lines: list[_Line], first: bool) -> bool:
    """Does the code from ``start`` to ``end`` close every block it opens and no other, read through the first
    (else the last) branch of each conditional chain in it? Read here, apart from the declaration reader, so that
    a misreading of a body's extent there cannot hide from this check."""
    depth = 0
    frames: list[list[int]] = []  # per chain: [depth at its #if, depth at the end of its first branch or -1]
    cursor = start
    for line in [*lines, _Line(end, end, "", "")]:
        for brace in _BRACES.finditer(masked, cursor, line.start):
            depth += 1 if brace.group() == "{" else -1
            if depth < 0:
                return False
        cursor = max(cursor, line.end)
        if line.keyword in _OPEN:
            frames.append([depth, -1])
        elif line.keyword in _BRANCH and frames:
            if frames[-1][1] < 0:
                frames[-1][1] = depth
            depth = frames[-1][0]
        elif line.keyword == "endif" and frames:
            _, first_end = frames.pop()
            if first and first_end >= 0:
                depth = first_end
    return depth == 0


def _is_unit(text: str, opening: _Line, closing: _Line) -> bool:
    """Is the chain from ``opening`` to ``closing`` a left-out unit (its #else stops the program, HPY010)?"""
    return text.find(UNIT_MARKER, opening.end, closing.start) >= 0


def _owner(declarations: list[Declaration], offset: int) -> Declaration | None:
    """The definition whose body holds ``offset``."""
    for decl in declarations:
        if decl.head_end < offset < decl.end:
            return decl
        if decl.start > offset:
            break
    return None


def _lost_declaration(original: str, translated: list[Declaration], renamed: set[str]) -> str:
    """A named top-level declaration of ``original`` the translation has fewer of ("" when none)."""
    lexed = lexing_of(original)  # the engine's lexing of the same text
    before = Counter(
        d.name for d in declarations_of(lexed.masked, lexed.directives) if d.name and d.name not in renamed
    )
    after = Counter(d.name for d in translated if d.name)
    lost = sorted(name for name, count in before.items() if after[name] < count)
    if not lost:
        return ""
    return f"the translation has fewer declarations of {', '.join(lost[:5])} than the original"


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1
