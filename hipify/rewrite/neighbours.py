"""Which tokens a deleted or commented-out text leaves side by side: deleting a calling-convention macro
(``CUBLASAPI``), or an include line turned into a comment, must not make a qualified name or a call of the words
around it (``cub`` / ``::x``), which the next translation would read anew."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from ..lexing.text_facts import next_token, prev_token
from ..model import Span

JOINS_A_WORD = frozenset(("::", "(", "<", "<<<"))


def joins_neighbours(masked: str, start: int, end: int, removed: frozenset[str], directives: Sequence[Span]) -> bool:
    """Would deleting the macro at ``masked[start:end]`` and the deleted macros around it (``CUDART_CB CUBLASAPI``, decided together so that a
    second translation decides the same) leave a word right before ``::``, ``(``, ``<`` or ``<<<``? Tokens of
    another line's directive are no neighbours (translation may add or change directive lines)."""
    own = directive_of(directives, start)
    before, at = prev_token(masked, start)
    while before in removed:
        before, at = prev_token(masked, at)
    if directive_of(directives, at) != own:
        before = ""
    after, at = next_token(masked, end)
    while after in removed:
        after, at = next_token(masked, at + len(after))
    if directive_of(directives, at) != own:
        after = ""
    return before[:1].isidentifier() and after in JOINS_A_WORD


def directive_of(directives: Sequence[Span], pos: int) -> int:
    """The index of the directive line holding ``pos``, -1 when it is code."""
    i = bisect.bisect_right(directives, (pos, float("inf"))) - 1
    return i if i >= 0 and directives[i][0] <= pos < directives[i][1] else -1
