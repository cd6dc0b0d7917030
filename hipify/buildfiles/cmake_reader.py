"""A reader of CMake's language (cmake-language(7)) that keeps every offset.

Why our own: the CMake parsers on PyPI are unmaintained (cmakelang/cmake-format: last release 2020;
cmake-parser: 2023; parse-cmake, cmakeast, cmakelists-parsing: older still) or reformat what they
read; a translation must edit the original text in place, so it needs each command's name and each
argument's exact span, and nothing else. The grammar is small: a file is command invocations, line
comments and bracket comments; an invocation is ``name(arguments)``; an argument is bracket
(``[=[...]=]``), quoted (``"..."`` with ``\\`` escapes) or unquoted (with the legacy forms CMake still
accepts: ``a"b c"d`` and make-style ``$(VAR)``), separated by whitespace, comments and nested
parentheses (which only ``if()``-like commands give a meaning).

The reader never raises: text it cannot read is skipped to the end of its line and reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

UNQUOTED = "unquoted"
QUOTED = "quoted"
BRACKET = "bracket"

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BRACKET_OPEN = re.compile(r"\[(=*)\[")
_MAKEVAR = re.compile(r"\$\([A-Za-z0-9_]*\)")
_SPACE = " \t\r\n"
# Characters that end an unquoted argument (a '"' inside one is the legacy quoted part).
_UNQUOTED_STOP = frozenset(' \t\r\n()#"\\')


@dataclass(frozen=True)
class Argument:
    kind: str  # UNQUOTED, QUOTED or BRACKET
    start: int  # the whole argument, delimiters included
    end: int
    value: str  # the text between the delimiters, as written (escapes and ${} not evaluated)
    depth: int  # nesting in parentheses inside the invocation; 0 = top level

    @property
    def value_start(self) -> int:
        if self.kind == QUOTED:
            return self.start + 1
        if self.kind == BRACKET:
            return self.start + (self.end - self.start - len(self.value)) // 2
        return self.start


@dataclass(frozen=True)
class Command:
    name: str  # as written
    start: int  # offset of the name
    end: int  # just past the closing parenthesis
    args: tuple[Argument, ...]

    @cached_property
    def key(self) -> str:
        """The name as CMake compares it (command names are case-insensitive); read for every rule a command meets."""
        return self.name.lower()


@dataclass(frozen=True)
class Problem:
    offset: int
    message: str


@dataclass(frozen=True)
class Listfile:
    commands: tuple[Command, ...]
    comments: tuple[tuple[int, int], ...]
    problems: tuple[Problem, ...]


def _bracket_end(text: str, pos: int) -> tuple[int, int] | None:
    """At ``[=*[``: (offset of the content, offset past the matching ``]=*]``), None if not a bracket."""
    m = _BRACKET_OPEN.match(text, pos)
    if not m:
        return None
    close = "]" + m.group(1) + "]"
    end = text.find(close, m.end())
    if end < 0:
        return (m.end(), -1)
    return (m.end(), end + len(close))


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.commands: list[Command] = []
        self.comments: list[tuple[int, int]] = []
        self.problems: list[Problem] = []

    def comment(self, pos: int) -> int:
        """At '#': skip a bracket or line comment, return the offset past it."""
        text = self.text
        bracket = _bracket_end(text, pos + 1)
        if bracket is not None:
            end = bracket[1]
            if end < 0:
                self.problems.append(Problem(pos, "unterminated bracket comment"))
                end = self.n
        else:
            end = text.find("\n", pos)
            if end < 0:
                end = self.n
        self.comments.append((pos, end))
        return end

    def skip_line(self, pos: int, message: str) -> int:
        self.problems.append(Problem(pos, message))
        end = self.text.find("\n", pos)
        return self.n if end < 0 else end

    def read(self) -> Listfile:
        text, n, pos = self.text, self.n, 0
        while pos < n:
            c = text[pos]
            if c in _SPACE:
                pos += 1
            elif c == "#":
                pos = self.comment(pos)
            else:
                m = _IDENT.match(text, pos)
                if not m:
                    pos = self.skip_line(pos, f"unexpected {c!r} where a command was expected")
                    continue
                after = m.end()
                while after < n and text[after] in " \t":
                    after += 1
                if after >= n or text[after] != "(":
                    pos = self.skip_line(pos, f"command {m.group()!r} without '('")
                    continue
                pos = self.arguments(m.group(), m.start(), after + 1)
        return Listfile(tuple(self.commands), tuple(self.comments), tuple(self.problems))

    def arguments(self, name: str, start: int, pos: int) -> int:
        text, n = self.text, self.n
        args: list[Argument] = []
        depth = 0
        while pos < n:
            c = text[pos]
            if c in _SPACE:
                pos += 1
            elif c == "#":
                pos = self.comment(pos)
            elif c == "(":
                depth += 1
                pos += 1
            elif c == ")":
                if depth == 0:
                    self.commands.append(Command(name, start, pos + 1, tuple(args)))
                    return pos + 1
                depth -= 1
                pos += 1
            elif c == "[" and (bracket := _bracket_end(text, pos)) is not None:
                content, end = bracket
                if end < 0:
                    self.problems.append(Problem(pos, "unterminated bracket argument"))
                    return n
                close = content - pos
                args.append(Argument(BRACKET, pos, end, text[content : end - close], depth))
                pos = end
            elif c == '"':
                end = self.quoted_end(pos)
                if end < 0:
                    self.problems.append(Problem(pos, "unterminated quoted argument"))
                    return n
                args.append(Argument(QUOTED, pos, end, text[pos + 1 : end - 1], depth))
                pos = end
            else:
                end = self.unquoted_end(pos)
                args.append(Argument(UNQUOTED, pos, end, text[pos:end], depth))
                pos = end
        self.problems.append(Problem(start, f"command {name!r} is not closed with ')'"))
        return n

    def quoted_end(self, pos: int) -> int:
        """At '"': the offset past the closing quote, -1 if none."""
        text, n = self.text, self.n
        i = pos + 1
        while i < n:
            c = text[i]
            if c == "\\":
                i += 2
            elif c == '"':
                return i + 1
            else:
                i += 1
        return -1

    def unquoted_end(self, pos: int) -> int:
        text, n = self.text, self.n
        i = pos
        while i < n:
            c = text[i]
            if c == "\\":
                i += 2
            elif c == '"' and i > pos:
                # Legacy: a quoted part inside an unquoted argument (-DX="a b") belongs to it.
                end = self.quoted_end(i)
                if end < 0:
                    return i
                i = end
            elif c == "$" and (m := _MAKEVAR.match(text, i)):
                i = m.end()
            elif c in _UNQUOTED_STOP:
                break
            else:
                i += 1
        if i == pos:  # a stray '\' at the end of the text, or similar: consume one character
            i = pos + 1
        return min(i, n)


def read(text: str) -> Listfile:
    """Read a CMake listfile: its command invocations (in order), comments and problems."""
    return _Reader(text).read()


# A variable reference whose name is literal: ${NAME}, $ENV{NAME}, $CACHE{NAME}.
_REFERENCE = re.compile(r"\$(ENV|CACHE)?\{([A-Za-z0-9_./+-]+)\}")


@dataclass(frozen=True)
class Reference:
    start: int  # offset of '$' in the text
    end: int  # past '}'
    name: str
    name_start: int
    scope: str  # "" (a variable), "ENV" or "CACHE"


def references(text: str, offset: int = 0) -> list[Reference]:
    """The variable references with a literal name in an argument's value (``text`` starts at ``offset``)."""
    return [
        Reference(offset + m.start(), offset + m.end(), m.group(2), offset + m.start(2), m.group(1) or "")
        for m in _REFERENCE.finditer(text)
    ]


def split_list(value: str) -> list[tuple[int, int]]:
    """A CMake list value (``a;b;c``) as (start, end) spans of its elements, empty ones left out; a ';'
    escaped or inside a ``[]`` group is not a separator."""
    if ";" not in value:  # one element (most arguments): only ';' separates, and no '\\' or '[' adds one
        return [(0, len(value))] if value else []
    spans: list[tuple[int, int]] = []
    start = 0
    square = 0
    i = 0
    while i < len(value):
        c = value[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            square += 1
        elif c == "]" and square:
            square -= 1
        elif c == ";" and not square:
            if i > start:
                spans.append((start, i))
            start = i + 1
        i += 1
    if len(value) > start:
        spans.append((start, len(value)))
    return spans
