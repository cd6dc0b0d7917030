"""Lexing a header for the declaration scanner: code tokens, comments and preprocessor lines.

Every #if branch is kept (the scanner reads the union of all configurations), except the later branches of a
group whose branches are alternative spellings of one declaration head (see ``conditionals``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from .conditionals import alternative_branches, enclosing_guards

_TOKEN = re.compile(
    r"""
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<pp>^[ \t]*\#[^\n]*)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
  | (?P<punct>::|->|[{}()\[\];,<>=*&:~!%^|+\-/.?\#])
  | (?P<space>\n|[ \t\r\f\v]+)
  | (?P<other>.)
    """,
    re.VERBOSE | re.MULTILINE | re.DOTALL,
)
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


class Token(NamedTuple):
    kind: str  # ident, number, string, punct, other
    text: str
    comments_before: int  # how many comments precede it in the file (its doc comment is the last of them)


@dataclass(frozen=True)
class Lexed:
    tokens: list[Token]  # code tokens
    comments: list[str]
    directives: list[str]  # preprocessor lines (continuations joined, comments blanked)
    guards: list[tuple[str, ...]]  # per code token: macros of the plain `#ifdef X` true branches enclosing it


def lex(text: str) -> Lexed:
    text = text.replace("\\\r\n", " ").replace("\\\n", " ")
    tokens: list[Token] = []
    comments: list[str] = []
    directives: list[str] = []
    marks: list[tuple[int, str]] = []  # (index of the next code token, preprocessor line)
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "space":
            continue
        if kind == "comment":
            comments.append(m.group())
        elif kind == "pp":
            directives.append(_COMMENTS.sub(" ", m.group()))
            marks.append((len(tokens), directives[-1]))
        else:
            tokens.append(Token(kind or "other", m.group(), len(comments)))
    guards = enclosing_guards(len(tokens), marks)
    drop = alternative_branches([t.text for t in tokens], marks)
    if drop:
        tokens = [t for k, t in enumerate(tokens) if k not in drop]
        guards = [g for k, g in enumerate(guards) if k not in drop]
    return Lexed(tokens, comments, directives, guards)


def closing(tokens: list[Token], i: int, open_: str, close: str) -> int:
    """Index of the token closing the bracket opened at ``i`` (the last token when unbalanced)."""
    depth = 0
    for j in range(i, len(tokens)):
        t = tokens[j].text
        if t == open_:
            depth += 1
        elif t == close:
            depth -= 1
            if depth == 0:
                return j
    return len(tokens) - 1


def split_top_level(tokens: list[Token], opening: frozenset[str], closing_: frozenset[str]) -> list[list[Token]]:
    """``tokens`` cut at the commas outside any of the brackets in ``opening``/``closing_``."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for tok in tokens:
        t = tok.text
        if t in opening:
            depth += 1
        elif t in closing_:
            depth -= 1
        if t == "," and depth == 0:
            parts.append([])
        else:
            parts[-1].append(tok)
    return parts
