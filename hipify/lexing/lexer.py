"""A linear-time C/C++ lexer: code, comments, string/char literals, preprocessor lines.

Two views of the same text, both with offsets into the original ``str``:

* :func:`lex` returns a :class:`Lexed` value: the spans of comments and literals, the
  spans of preprocessor directives, and ``masked`` -- the text with every comment
  blanked to spaces and every literal's interior blanked (quotes kept), same length.
  Structural scans (brackets, ``<<<``, commas) run on ``masked`` with plain ``str``
  and ``re`` operations, so they never see a ``)`` inside a string or a comment.
* :func:`iter_tokens` yields every token (identifiers, numbers, punctuators, literals,
  comments) for callers that want a token stream (tests, the clang engine's checks).

Never raises: unterminated comments and literals end at the end of the file (block
comments, raw strings) or of the line (ordinary literals).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from ..model import Span

# No capture groups and a leading '/', '"' or "'" on every alternative: that lets the regex
# engine skip ordinary code at C speed. Literal prefixes (u8, u, U, L, R) are found by
# looking back from the quote, in Python, on the comparatively rare hits.
_SCAN = re.compile(
    r"""
      //(?:[^\r\n\\]|\\\r\n|\\.)*\\?               # line comment, to a CR or LF; a trailing \ continues it
    | /\*.*?(?:\*/|\Z)                                # block comment, maybe unterminated
    | "(?:[^"\\\n]|\\\r?\n|\\.)*(?:"|(?=\n)|\Z)     # string literal, ends at the line if unterminated
    | '(?:[^'\\\n]|\\\r?\n|\\.)*(?:'|(?=\n)|\Z)     # char literal, likewise
    """,
    re.VERBOSE | re.DOTALL,
)
_RAW_BODY = re.compile(r'"([^()\\\s"]{0,16})\(', re.DOTALL)
_PREFIX_BEFORE = re.compile(r"(?:u8|[uUL])?R?$")
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")


def _prefix_start(text: str, quote: int) -> tuple[int, bool]:
    """(start of the literal including its encoding prefix, is it a raw string)."""
    m = _PREFIX_BEFORE.search(text, max(0, quote - 3), quote)
    start = m.start() if m else quote
    while start < quote and start > 0 and text[start - 1] in _WORD:
        start += 1  # the letters belong to an identifier (fooL"x"): shrink the prefix
    return start, text[quote - 1] == "R" and start < quote


# A preprocessor line: '#' first on a line (after blanks), up to a newline not escaped by '\'.
# Anchored on the newline before it (much faster than '^' with MULTILINE); the first line
# of the file is checked with match() at offset 0.
_DIRECTIVE_BODY = r"[ \t\f\v]*#[^\n\\]*(?:\\(?:\r\n|.)[^\n\\]*)*\\?"
_DIRECTIVE = re.compile(r"\n" + _DIRECTIVE_BODY, re.DOTALL)
_FIRST_DIRECTIVE = re.compile(_DIRECTIVE_BODY, re.DOTALL)


class Kind(str, Enum):
    IDENT = "ident"
    NUMBER = "number"
    PUNCT = "punct"
    STRING = "string"  # string literal, raw string included
    CHAR = "char"
    COMMENT = "comment"


@dataclass(frozen=True)
class Token:
    kind: Kind
    start: int
    end: int
    text: str
    in_directive: bool = False


@dataclass(frozen=True)
class Lexed:
    text: str
    masked: str  # comments -> spaces, literal interiors -> spaces
    comments: tuple[Span, ...]  # '//...' (without the newline) and '/*...*/'
    literals: tuple[Span, ...]  # string and char literals, prefixes included
    directives: tuple[Span, ...]  # '#' up to the end of the logical line (before its newline)
    char_literals: frozenset[int] = frozenset()  # starts of the literals that are char literals


def _blank_literal(piece: str, quote: str) -> str:
    """Spaces of the same length, keeping the quotes so the masked code still reads as C."""
    if len(piece) < 2:
        return quote
    closed = piece.endswith(quote)
    return quote + " " * (len(piece) - (2 if closed else 1)) + (quote if closed else "")


def lex(text: str) -> Lexed:
    """Split ``text`` into code, comments and literals; find directive lines. O(len(text))."""
    comments: list[Span] = []
    literals: list[Span] = []
    chars: list[int] = []
    pieces: list[str] = []
    cursor = 0
    separator = -2  # the last quote read as a digit separator
    search = _SCAN.search
    m = search(text)
    while m is not None:
        start, end = m.span()
        first = text[start]
        if first == "/":
            comments.append((start, end))
            pieces.append(text[cursor:start])
            pieces.append(" " * (end - start))
            cursor = end
            m = search(text, end)
            continue
        lit_start, raw = _prefix_start(text, start) if start and text[start - 1] in _WORD else (start, False)
        if first == "'" and lit_start == start and _in_number(text, start, separator):
            separator = start
            m = search(text, start + 1)  # a digit separator (1'000), not a char literal
            continue
        if raw:
            end = _raw_end(text, start)
        literals.append((lit_start, end))
        if first == "'":
            chars.append(lit_start)
        pieces.append(text[cursor:lit_start])
        pieces.append(_blank_literal(text[lit_start:end], first))
        cursor = end
        m = search(text, end)
    pieces.append(text[cursor:])
    masked = "".join(pieces)
    if masked.startswith("\ufeff"):  # a BOM is not code: '#' after it still starts a directive
        masked = " " + masked[1:]
    head = _FIRST_DIRECTIVE.match(masked)
    directives = tuple(
        ([_directive_span(masked, 0, head.end())] if head else [])
        + [_directive_span(masked, m.start() + 1, m.end()) for m in _DIRECTIVE.finditer(masked)]
    )
    return Lexed(text, masked, tuple(comments), tuple(literals), directives, frozenset(chars))


def _in_number(text: str, quote: int, separator: int) -> bool:
    """Does the quote at ``quote`` follow a number (``1'000``, ``0x1'f``), making it a digit
    separator? After a name (``return'x'``) it opens a character literal."""
    j = quote
    while j > 0 and (text[j - 1] in _WORD or text[j - 1] == "."):
        j -= 1
    if j == quote:
        return False
    if text[j].isdigit() or (text[j] == "." and text[j + 1 : j + 2].isdigit()):
        return True
    return j - 1 == separator  # continues a number whose previous separator we passed (1'000'000)


def _raw_end(text: str, quote: int) -> int:
    """End of the raw string whose opening quote is at ``quote`` (end of file if unterminated)."""
    m = _RAW_BODY.match(text, quote)
    if m is None:  # R"x without '(' is not a raw string: treat as an ordinary one
        ordinary = _SCAN.match(text, quote)
        return ordinary.end() if ordinary else quote + 1
    close = text.find(")" + m.group(1) + '"', m.end())
    return len(text) if close == -1 else close + len(m.group(1)) + 2


def _directive_span(masked: str, start: int, end: int) -> Span:
    # Start at the '#', end before a CRLF's '\r' so insertions never split a line ending.
    start = masked.find("#", start, end)
    if end > start and masked[end - 1] == "\r":
        end -= 1
    return (start, end)


_CODE_TOKEN = re.compile(
    r"""
      (?P<ident>[A-Za-z_$][\w$]*)
    | (?P<number>\.?\d(?:[eEpP][+-]|'(?=\w)|[\w.])*)
    | (?P<punct><<<|>>>|<<=|>>=|->\*|\.\.\.|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=|\#\#|[^\s\w])
    """,
    re.VERBOSE | re.ASCII,
)


def iter_tokens(text: str, lexed: Lexed | None = None) -> Iterator[Token]:
    """Every token of ``text`` in order. Whitespace and line continuations are skipped."""
    lexed = lexed or lex(text)
    special = sorted(
        [(s, e, Kind.COMMENT) for s, e in lexed.comments]
        + [(s, e, Kind.CHAR if s in lexed.char_literals else Kind.STRING) for s, e in lexed.literals]
    )
    directives = lexed.directives
    d_index = 0

    def in_directive(pos: int) -> bool:
        nonlocal d_index
        while d_index < len(directives) and directives[d_index][1] < pos:
            d_index += 1
        return d_index < len(directives) and directives[d_index][0] <= pos

    cursor = 0
    for s, e, kind in special + [(len(text), len(text), None)]:
        for m in _CODE_TOKEN.finditer(lexed.masked, cursor, s):
            if m.group() == "\\":  # a line continuation or stray backslash: not a token
                continue
            yield Token(Kind(m.lastgroup), m.start(), m.end(), m.group(), in_directive(m.start()))
        if kind is not None:
            yield Token(kind, s, e, text[s:e], in_directive(s))
        cursor = e
