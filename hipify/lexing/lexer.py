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
from dataclasses import dataclass, field
from enum import Enum

from ..model import Span

# What clang reads as a line end: LF, CR (old Mac files, mixed files) or CRLF. A backslash
# before one splices the lines, even with blanks between them (clang and GCC accept that);
# after a backslash, clang also reads LF CR as one line end.
_SPLICE = r"\\[ \t\f\v]*(?:\r\n|\n\r|[\r\n])"

# No capture groups and a leading '/', '"' or "'" on every alternative: that lets the regex
# engine skip ordinary code at C speed. Literal prefixes (u8, u, U, L, R) are found by
# looking back from the quote, in Python, on the comparatively rare hits. An unterminated
# literal ends before its line end, an unterminated block comment at the end of the file.
_SCAN = re.compile(
    rf"""
      /(?:{_SPLICE})*/(?:[^\r\n\\]+|{_SPLICE}|\\)*                                 # line comment
    | /(?:{_SPLICE})*\*.*?(?:\*(?:{_SPLICE})*/|\Z)                                # block comment
    | "(?:[^"\\\r\n]+|{_SPLICE}|\\(?:{_SPLICE})*[^\r\n]?)*(?:"|(?=[\r\n])|\Z)  # string literal
    | '(?:[^'\\\r\n]+|{_SPLICE}|\\(?:{_SPLICE})*[^\r\n]?)*(?:'|(?=[\r\n])|\Z)  # char literal
    """,
    re.VERBOSE | re.DOTALL,
)
_SPLICE_AT = re.compile(_SPLICE)
# A raw string's delimiter, as clang reads it: up to 16 of the basic characters other than blanks, parentheses and
# backslash (quotes included), then '('.
_RAW_BODY = re.compile(r""""([A-Za-z0-9_.{}\[\]#<>%:;?*+\-/^&|~!=,"']{0,16})\(""")
_STRING_PREFIX_BEFORE = re.compile(r"(?:u8|[uUL])?R?$")
_CHAR_PREFIX_BEFORE = re.compile(r"(?:u8|[uUL])?$")  # no raw character literal: R'x' is a name R, then 'x'
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
# A name right after a literal is its ud-suffix when it starts with '_' or a non-ASCII name
# character; a string literal also takes the standard library's suffixes (C++17), as clang
# reads them. Any other name after a literal is a separate token (an old "%"PRIu64 macro).
_STRING_SUFFIXES = frozenset(("s", "sv", "i", "if", "il", "h", "min", "ms", "us", "ns"))
_LONGEST_STRING_SUFFIX = max(map(len, _STRING_SUFFIXES))
_SUFFIX_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_DIGITS = frozenset("0123456789")
_SEPARATED = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")  # may follow a separator


def is_name_char(c: str) -> bool:
    """Can ``c`` continue an identifier? ASCII letters, digits, ``_`` and ``$``, and the
    non-ASCII characters C++ allows in names (XID_Continue, as Python's own identifiers:
    ``curand_log_normal4é`` is one name, never ``curand_log_normal4`` and a stray ``é``)."""
    return c in _WORD or (c > "\x7f" and ("a" + c).isidentifier())


def _prefix_start(text: str, quote: int) -> tuple[int, bool]:
    """(start of the literal including its encoding prefix, is it a raw string)."""
    prefix = _STRING_PREFIX_BEFORE if text[quote] == '"' else _CHAR_PREFIX_BEFORE
    m = prefix.search(text, max(0, quote - 3), quote)
    start = m.start() if m else quote
    while start < quote:
        before = _before_splices(text, start)  # an identifier goes on across a line splice: x\<newline>u8"s"
        if not before or not is_name_char(text[before - 1]):
            break
        start += 1  # the letters belong to an identifier (fooL"x"): shrink the prefix
    return start, text[quote - 1] == "R" and start < quote


def joined_by_splice(text: str, start: int, end: int) -> bool:
    """Does a line splice join the name ``text[start:end]`` to name characters before or after it? Then clang reads
    one longer name (``s\\<newline>CUDART_CB`` is the name ``sCUDART_CB``), and this is no name of its own."""
    if start and text[start - 1] in "\r\n":
        before = _before_splices(text, start)
        if before < start and before and is_name_char(text[before - 1]):
            return True
    if text[end : end + 1] == "\\":
        after = _past_splices(text, end)
        return end < after < len(text) and is_name_char(text[after])
    return False


def _before_splices(text: str, at: int) -> int:
    """Where the line splices (a backslash, blanks, a line end) that end at ``at`` begin; ``at`` if none do."""
    while at and text[at - 1] in "\r\n":
        end = at - 1
        if end and text[end - 1] in "\r\n" and text[end - 1] != text[end]:
            end -= 1  # CR LF or LF CR: one line end
        while end and text[end - 1] in " \t\f\v":
            end -= 1
        if not end or text[end - 1] != "\\":
            break
        at = end - 1
    return at


# A preprocessor line: '#' first on a line (after blanks), up to a newline not escaped by '\'.
# Anchored on the newline before it (much faster than '^' with MULTILINE); the first line
# of the file is checked with match() at offset 0.
_DIRECTIVE_BODY = r"[ \t\f\v]*#[^\r\n\\]*(?:(?:" + _SPLICE + r"|\\)[^\r\n\\]*)*"
_DIRECTIVE = re.compile(r"[\r\n]" + _DIRECTIVE_BODY, re.DOTALL)
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
    masked: str  # comments -> spaces, literal interiors -> spaces, digit separators -> "_"
    comments: tuple[Span, ...]  # '//...' (without the newline) and '/*...*/'
    literals: tuple[Span, ...]  # string and char literals, prefixes included
    directives: tuple[Span, ...]  # '#' up to the end of the logical line (before its newline)
    char_literals: frozenset[int] = frozenset()  # starts of the literals that are char literals
    # What readers derive from this lexing, kept with it: the project scan and the translation of a file read the
    # same kept lexing, and each would otherwise work out its directive lines again.
    derived: dict[str, object] = field(default_factory=dict, compare=False, repr=False)


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
        lit_start, raw = _prefix_start(text, start) if start and is_name_char(text[start - 1]) else (start, False)
        if _before_splices(text, lit_start) - 1 == separator:  # 1'u8'x', 1'\<newline>R"x: the number goes on
            lit_start, raw = start, False
        if first == "'" and lit_start == start and _in_number(text, start, separator):
            # A digit separator (1'000), not a char literal. Masked as '_', so that every scan of the masked text
            # reads one number (1'k is no name k after a quote).
            separator = start
            pieces.append(text[cursor:start])
            pieces.append("_")
            cursor = start + 1
            m = search(text, start + 1)
            continue
        if raw:
            end, closed = _raw_end(text, start)
        else:
            closed = _closed(text, start, end)
        body_end = end
        # clang reads '' (line splices between the quotes aside) as an invalid token: no suffix
        if closed and (first == '"' or _past_splices(text, start + 1) < end - 1):
            end = _suffix_end(text, end, first == '"')
        literals.append((lit_start, end))
        if first == "'":
            chars.append(lit_start)
        pieces.append(text[cursor:lit_start])
        pieces.append(_blank_literal(text[lit_start:body_end], first) + " " * (end - body_end))
        cursor = end
        m = search(text, end)
    pieces.append(text[cursor:])
    masked = "".join(pieces)
    if masked.startswith("\ufeff"):  # a BOM is not code: '#' after it still starts a directive
        masked = " " + masked[1:]
    head = _FIRST_DIRECTIVE.match(masked)
    directives = tuple(
        ([_directive_span(masked, 0, head.end())] if head else [])
        + [_directive_span(masked, start + 1, end) for start, end in _directive_matches(masked)]
    )
    return Lexed(text, masked, tuple(comments), tuple(literals), directives, frozenset(chars))


def _in_number(text: str, quote: int, separator: int) -> bool:
    """Is the quote at ``quote`` a digit separator (``1'000``, ``0x1'f``)? As clang reads it:
    inside a number (a pp-number: it starts with a digit or ``.digit``), and followed by an
    ASCII letter, digit or ``_``; otherwise it opens a character literal (``return'x'``,
    ``1''``, ``1'/*'``). Line splices on either side of the quote join the number (``1'\\<newline>000``)."""
    after = _past_splices(text, quote + 1)
    if text[after : after + 1] not in _SEPARATED:
        return False
    run: list[str] = []  # the name and number characters before the quote, last first, splices left out
    j = quote
    while j > 0:
        c = text[j - 1]
        if is_name_char(c) or c == "." or (c in "+-" and j > 1 and text[j - 2] in "eEpP"):
            run.append(c)
            j -= 1
        elif c in "\r\n" and _before_splices(text, j) < j:
            j = _before_splices(text, j)
        else:
            break
    if not run:
        return False
    if j - 1 == separator:
        return True  # continues a number whose previous separator we passed (1'000'000)
    return _ends_in_number("".join(reversed(run)), 0, len(run))


def _ends_in_number(text: str, i: int, end: int) -> bool:
    """Does ``text[i:end]`` (name, number, '.', '+' and '-' characters) end with a number?"""
    number = False
    while i < end:
        c = text[i]
        if c in _DIGITS or (c == "." and text[i + 1 : i + 2] in _DIGITS and i + 1 < end):
            number = True
            i += 1
            while i < end and text[i] != "$":
                if text[i] in "+-" and text[i - 1] not in "eEpP":
                    break
                i += 1
        elif c in "+-.":
            number = False
            i += 1
        else:  # an identifier: letters, digits, '_', '$' and non-ASCII name characters
            number = False
            i += 1
            while i < end and text[i] not in "+-.":
                i += 1
    return number


def _closed(text: str, quote: int, end: int) -> bool:
    """Did the literal from ``quote`` to ``end`` end with its closing quote (an escaped quote
    at the end of the file closes nothing)?"""
    if end - quote < 2 or text[end - 1] != text[quote]:
        return False
    backslashes = 0
    while text[end - 2 - backslashes] == "\\":
        backslashes += 1
    return backslashes % 2 == 0


def _past_splices(text: str, at: int) -> int:
    """``at`` moved past the line splices that start there (a suffix may follow one)."""
    while text[at : at + 1] == "\\":
        m = _SPLICE_AT.match(text, at)
        if m is None:
            break
        at = m.end()
    return at


def _suffix_end(text: str, end: int, string: bool) -> int:
    """End of the literal ending at ``end`` with its ud-suffix, if a name there is one. Clang
    reads a suffix across line splices ('x'\\<newline>_km is one token)."""
    start = _past_splices(text, end)
    c = text[start : start + 1]
    if c == "_" or (c > "\x7f" and is_name_char(c)):
        at = start + 1
    elif string and c in _SUFFIX_CHARS:
        # As clang: the ASCII name characters (at most three) up to the first other character must spell a
        # standard suffix; the suffix then takes every name character that follows ("s"sv名前 is one token).
        at = start
        letters: list[str] = []
        while True:
            after = _past_splices(text, at)
            if after < len(text) and text[after] in _SUFFIX_CHARS:
                if len(letters) == _LONGEST_STRING_SUFFIX:
                    return end
                letters.append(text[after])
                at = after + 1
            else:
                break
        if "".join(letters) not in _STRING_SUFFIXES:
            return end
    else:
        return end
    while True:  # ``at`` is after a suffix character; splices count only when one follows them
        after = _past_splices(text, at)
        if after < len(text) and (text[after] in _SUFFIX_CHARS or (text[after] > "\x7f" and is_name_char(text[after]))):
            at = after + 1
        else:
            return at


def _raw_end(text: str, quote: int) -> tuple[int, bool]:
    """(end of the raw string whose opening quote is at ``quote`` -- the end of the file if
    unterminated --, is it terminated, so that a ud-suffix may follow)."""
    m = _RAW_BODY.match(text, quote)
    if m is None:
        # No '(' after a delimiter (R"x, R"\r, a blank in it, longer than 16): clang reads an invalid token up to the
        # next '"', on whatever line, or to the end of the file, and takes no suffix after it.
        close = text.find('"', quote + 1)
        return (len(text) if close == -1 else close + 1), False
    close = text.find(")" + m.group(1) + '"', m.end())
    return (len(text), False) if close == -1 else (close + len(m.group(1)) + 2, True)


def _directive_matches(masked: str) -> Iterator[tuple[int, int]]:
    """The spans of ``_DIRECTIVE.finditer(masked)``, found from each '#' (rare in masked code, and found by
    ``str.find`` at C speed) rather than by trying the pattern at every line end."""
    end = 0  # where finditer would search next
    match = _DIRECTIVE.match
    hash_at = masked.find("#")
    while hash_at >= 0:
        start = hash_at
        while start > 0 and masked[start - 1] in " \t\f\v":
            start -= 1
        start -= 1  # the line end the pattern starts with
        if start >= end and masked[start] in "\r\n" and not _spliced_onto_code(masked, start):
            m = match(masked, start)
            if m is not None:
                yield start, m.end()
                end = m.end()
                hash_at = masked.find("#", end)
                continue
        hash_at = masked.find("#", hash_at + 1)


def _spliced_onto_code(masked: str, at: int) -> bool:
    """Is the line end at ``at`` a line splice (a backslash before it, blanks between) with code before it on its
    logical line? Then the '#' after it is in the middle of that line (``x = !\\<newline>#include "a.h"``) and
    begins no directive, as clang reads it. Splices alone on their lines do not count: the '#' still comes first."""
    while True:
        if at > 0 and masked[at - 1] + masked[at] in ("\r\n", "\n\r"):
            at -= 1  # CR LF (or LF CR after a backslash): one line end
        k = at
        while k > 0 and masked[k - 1] in " \t\f\v":
            k -= 1
        if k == 0 or masked[k - 1] != "\\":
            return False  # a line end of its own: the '#' starts its logical line
        k -= 1
        while k > 0 and masked[k - 1] in " \t\f\v":
            k -= 1
        if k == 0:
            return False
        if masked[k - 1] not in "\r\n":
            return True
        at = k - 1  # a line holding only the splice: the logical line began before it


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
            yield Token(Kind(m.lastgroup), m.start(), m.end(), text[m.start() : m.end()], in_directive(m.start()))
        if kind is not None:
            yield Token(kind, s, e, text[s:e], in_directive(s))
        cursor = e
