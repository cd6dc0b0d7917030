"""Which region an offset lies in: INACTIVE (a skipped ``#if`` branch) beats DIRECTIVE (a
preprocessor line) beats CODE. Both engines use it: the text engine with the ``#if``
decisions it can make, the clang engine with the branches the preprocessor skipped."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from ..model import Span
from .facts import Region


class RegionMap:
    """O(log n) per query over sorted, non-overlapping directive and inactive spans."""

    def __init__(self, directives: Sequence[Span], inactive: Sequence[Span]) -> None:
        self.directive_starts = [s for s, _ in directives]
        self.directive_ends = [e for _, e in directives]
        self._inactive_starts = [s for s, _ in inactive]
        self._inactive_ends = [e for _, e in inactive]
        self.has_inactive = bool(inactive)

    @staticmethod
    def _inside(starts: list[int], ends: list[int], pos: int) -> bool:
        i = bisect.bisect_right(starts, pos) - 1
        return i >= 0 and pos < ends[i]

    def inactive(self, pos: int) -> bool:
        return self.has_inactive and self._inside(self._inactive_starts, self._inactive_ends, pos)

    def directive_end(self, pos: int) -> int:
        """End of the directive containing ``pos``, or -1."""
        i = bisect.bisect_right(self.directive_starts, pos) - 1
        return self.directive_ends[i] if i >= 0 and pos < self.directive_ends[i] else -1

    def crosses_directive(self, start: int, end: int) -> bool:
        """Does ``[start, end]`` cross a directive boundary (a directive line lies between, or only
        one end is inside one)? Code never continues across one: ``#endif`` then ``<<<1,2>>>``
        on the next line is no launch of a kernel called ``endif``."""
        i = bisect.bisect_right(self.directive_starts, end) - 1
        if i < 0:
            return False
        d_start, d_end = self.directive_starts[i], self.directive_ends[i]
        if end < d_end:  # ``end`` is inside this directive: so must ``start`` be
            return start < d_start
        return start < d_end

    def of(self, pos: int) -> Region:
        if self.inactive(pos):
            return Region.INACTIVE
        if self.directive_end(pos) >= 0:
            return Region.DIRECTIVE
        return Region.CODE

    def of_directive(self, pos: int) -> Region:
        """The region of a directive line itself: a directive is never inside another."""
        return Region.INACTIVE if self.inactive(pos) else Region.CODE
