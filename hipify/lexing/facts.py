"""What an engine learned about a file, before any rewriting decision.

Both engines produce :class:`FileFacts`; one planner (``hipify.rewrite``) turns them
into edits, so the regex and clang engines differ only in how they *find* things.
All offsets are character offsets into the source text; spans are half-open.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from ..model import Diagnostic, Origin, Span

# Directives whose identifiers are tested by the preprocessor, not compiled (``defined(X)`` too).
CONDITION_DIRECTIVES = frozenset(("if", "ifdef", "ifndef", "elif", "elifdef", "elifndef"))


class Region(str, Enum):
    CODE = "code"  # ordinary code the compiler sees
    DIRECTIVE = "directive"  # inside a preprocessor directive (e.g. a #define body)
    INACTIVE = "inactive"  # inside an #if branch the preprocessor skips


class Identifier(NamedTuple):
    """An identifier the planner may care about (a NamedTuple for speed, like ``Edit``)."""

    start: int
    end: int
    name: str
    region: Region = Region.CODE
    origin: Origin = Origin.TOKEN
    prev_token: str = ""  # the significant token before (".", "->", "::", "namespace", ...)
    next_token: str = ""  # the significant token after ("(", "::", ...)
    qualifier: str = ""  # "cub" for cub::X, "" when unqualified
    user_declared: bool = False  # AST: this name refers to the user's own declaration
    call_args: tuple[Span, ...] | None = None  # argument spans when this names a callee
    directive: str = ""  # keyword of the directive it stands in ("if", "ifdef", "define", ...); "" in code


@dataclass(frozen=True)
class Launch:
    """``kernel<<<config...>>>(args...)``."""

    start: int  # == kernel[0]
    end: int  # one past the closing ')'
    kernel: Span  # the callee text, e.g. ``ns::k<float>``
    config: tuple[Span, ...]  # 2..4 spans inside <<< >>>
    chevron_close: Span  # the ``>>>`` token (``>> >`` where it was written with blanks)
    lparen: int  # offset of '(' after >>>
    rparen: int  # offset of the closing ')'
    args: tuple[Span, ...]  # kernel argument spans (may be empty)
    template: bool = False  # explicit (k<T>) or deduced template kernel
    region: Region = Region.CODE
    origin: Origin = Origin.TEXT
    chevron_open: Span = (-1, -1)  # the ``<<<`` token (``<< <`` where it was written with blanks)


@dataclass(frozen=True)
class Include:
    start: int  # '#' of the directive
    end: int  # end of the directive line (before the newline)
    name: Span  # the header name between the delimiters
    header: str
    angled: bool
    region: Region = Region.CODE


@dataclass(frozen=True)
class Directive:
    start: int
    end: int  # end of the (possibly continued) line, before the newline
    keyword: str  # "define", "ifndef", "pragma", "include", "if", ...
    argument: str  # the rest of the directive, whitespace-normalised
    region: Region = Region.CODE


@dataclass(frozen=True)
class FileFacts:
    identifiers: tuple[Identifier, ...]
    launches: tuple[Launch, ...]
    includes: tuple[Include, ...]
    directives: tuple[Directive, ...]
    comments: tuple[Span, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    # The text with comments and literal interiors blanked (the lexer's view), for rules that read
    # code structure; "" when an engine did not provide it (rules then lex the text themselves).
    masked: str = ""
    # Offsets of member templates named in a dependent scope without ``template`` (``X<T>::cast<N>(p)``), which
    # nvcc accepts and clang reads as comparisons: only an AST tells (the clang engine's facts).
    dependent_templates: tuple[int, ...] = ()


def rejoin_template_commas(text: str, spans: tuple[Span, ...]) -> tuple[Span, ...]:
    """Argument spans with ``k<float, 4>``'s pieces (split at a template's comma) joined."""
    out: list[Span] = []
    open_angles = 0
    for start, end in spans:
        if open_angles > 0 and out:
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
        piece = text[out[-1][0] : out[-1][1]].replace("<<", "").replace(">>", "").replace("->", "")
        open_angles = piece.count("<") - piece.count(">")
    return tuple(out)
