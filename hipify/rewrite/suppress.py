"""Suppression comments: ``hipify-py: off`` / ``on`` / ``skip-file`` / ``ignore`` (per line)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..lexing.lines import line_end, line_start
from ..model import Span

_MARKER = re.compile(r"hipify-py:\s*(off|on|skip-file|ignore)\b")


@dataclass(frozen=True)
class Suppression:
    skip_file: bool
    regions: tuple[Span, ...]  # [start, end) offsets where nothing is rewritten or reported
    skip_offset: int = 0  # where the skip-file marker is (for its diagnostic)

    def covers(self, offset: int) -> bool:
        if self.skip_file:
            return True
        i = bisect.bisect_right(self.regions, (offset, float("inf"))) - 1
        return i >= 0 and offset < self.regions[i][1]


def find_suppression(text: str, comments: Sequence[Span]) -> Suppression:
    """Read the markers from the file's comments (markers in code or strings do not count)."""
    regions: list[Span] = []
    off_at = -1
    for start, end in comments:
        if "hipify-py" not in text[start:end]:
            continue
        m = _MARKER.search(text, start, end)
        if m is None:
            continue
        word = m.group(1)
        if word == "skip-file":
            return Suppression(True, (), start)
        if word == "off" and off_at < 0:
            off_at = start
        elif word == "on" and off_at >= 0:
            regions.append((off_at, end))
            off_at = -1
        elif word == "ignore":
            regions.append((line_start(text, start), line_end(text, start)))
    if off_at >= 0:
        regions.append((off_at, len(text)))
    return Suppression(False, tuple(_merge(sorted(regions))))


def _merge(spans: list[Span]) -> list[Span]:
    out: list[Span] = []
    for s, e in spans:
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out
