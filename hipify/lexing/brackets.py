"""Bracket matching and top-level comma splitting over masked text (no literals, no comments).

Results are memoised per opening parenthesis, and one scan records every nested pair it
closes, so asking for the arguments of nested calls (``CHECK(cudaMalloc(...))``) stays
linear in the text size.
"""

from __future__ import annotations

import re

from ..model import Span

_BRACKET = re.compile(r"[()\[\]{},]")
# The launch's closing chevrons, also spelled with blanks between them (``>> >``, which nvcc accepts).
_CHEVRON = re.compile(r">[ \t\r\n\\]*>[ \t\r\n\\]*>|[()\[\]{},;]")
_CLOSE_FOR = {")": "(", "]": "[", "}": "{"}
_BLANK = " \t\r\n\f\v\\"


def trim(masked: str, start: int, end: int) -> Span:
    """Shrink ``[start, end)`` past blanks and line continuations on both sides."""
    while start < end and masked[start] in _BLANK:
        start += 1
    while end > start and masked[end - 1] in _BLANK:
        end -= 1
    return (start, end)


class Brackets:
    """Matching over ``masked``; spans are trimmed of blanks in ``text`` (the original), so a
    comment at the edge of an argument stays inside its span and is never dropped."""

    def __init__(self, masked: str, text: str | None = None) -> None:
        self.masked = masked
        self.text = masked if text is None else text
        # open offset -> (close offset, top-level comma offsets); None when unmatched
        self._memo: dict[int, tuple[int, tuple[int, ...]] | None] = {}

    def _scan(self, open_pos: int, limit: int) -> None:
        stack: list[tuple[str, int, list[int]]] = [(self.masked[open_pos], open_pos, [])]
        for m in _BRACKET.finditer(self.masked, open_pos + 1, limit):
            c = m.group()
            at = m.start()
            if c == ",":
                stack[-1][2].append(at)
            elif c in "([{":
                stack.append((c, at, []))
            else:
                opener, where, commas = stack.pop()
                if _CLOSE_FOR[c] != opener:
                    stack.append((opener, where, commas))
                    break
                if opener == "(":
                    self._memo[where] = (at, tuple(commas))
                if not stack:
                    return
        for _, where, _ in stack:  # unmatched: remember, so later asks are O(1)
            if self.masked[where] == "(":
                self._memo.setdefault(where, None)

    def _pair(self, open_pos: int, limit: int) -> tuple[int, tuple[int, ...]] | None:
        if open_pos not in self._memo:
            self._scan(open_pos, limit)
        found = self._memo.get(open_pos)
        if found is None or found[0] >= limit:
            return None
        return found

    def close_of(self, open_pos: int) -> int:
        found = self._memo.get(open_pos)
        return found[0] if found else -1

    def args(self, open_pos: int, limit: int) -> tuple[Span, ...] | None:
        """Argument spans (blank-trimmed) of the call whose '(' is at ``open_pos``; () for none."""
        found = self._pair(open_pos, limit)
        if found is None:
            return None
        close, commas = found
        bounds = (open_pos,) + commas + (close,)
        spans = tuple(trim(self.text, bounds[i] + 1, bounds[i + 1]) for i in range(len(bounds) - 1))
        if len(spans) == 1 and spans[0][0] == spans[0][1]:
            return ()
        return spans

    def chevron_config(self, start: int, limit: int) -> tuple[list[Span], Span] | None:
        """Spans of the launch configuration after ``<<<`` and the span of the closing ``>>>``."""
        depth: list[str] = []
        cuts = [start - 1]
        for m in _CHEVRON.finditer(self.masked, start, limit):
            c = m.group()
            if c[0] == ">":
                if not depth:
                    cuts.append(m.start())
                    spans = [trim(self.text, cuts[i] + 1, cuts[i + 1]) for i in range(len(cuts) - 1)]
                    return spans, (m.start(), m.end())
            elif c == ",":
                if not depth:
                    cuts.append(m.start())
            elif c == ";":
                return None  # a statement ended: this was not a launch
            elif c in "([{":
                depth.append(c)
            elif not depth or _CLOSE_FOR[c] != depth.pop():
                return None
        return None
