"""The one splice routine both engines use: apply edits to the original text."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..model import Diagnostic, Edit, Severity


@dataclass(frozen=True)
class FixResult:
    text: str
    applied: tuple[Edit, ...]
    rejected: tuple[Edit, ...]
    diagnostics: tuple[Diagnostic, ...]

    def counts(self) -> Counter[str]:
        """Applied edits per rule code."""
        return Counter(edit.code for edit in self.applied)


def _sort_key(edit: Edit) -> tuple[int, int, bool]:
    # Insertions (start == end) at a position go before a replacement starting there; of the
    # insertions there, whole lines (ending in a line end: LF, or CR in an old Mac file) first: the others belong to the
    # code that follows (an inserted #include must not land inside a rewritten launch).
    return (edit.start, edit.end, not (edit.start == edit.end and edit.replacement.endswith(("\n", "\r"))))


def apply(text: str, edits: tuple[Edit, ...] | list[Edit]) -> FixResult:
    """Apply non-overlapping edits; overlapping or out-of-range ones are refused and reported.

    Identical duplicate edits are applied once. Two insertions at the same offset are both
    applied: whole lines first, otherwise in the order given (stable sort).
    """
    ordered = sorted(dict.fromkeys(edits), key=_sort_key)
    applied: list[Edit] = []
    rejected: list[Edit] = []
    diagnostics: list[Diagnostic] = []
    pieces: list[str] = []
    cursor = 0
    for edit in ordered:
        if edit.start < cursor or edit.end < edit.start or edit.end > len(text):
            rejected.append(edit)
            diagnostics.append(
                Diagnostic(
                    "HPY202",
                    f"overlapping edit refused: {edit.code} {text[edit.start : edit.end]!r} -> {edit.replacement!r}",
                    offset=max(0, min(edit.start, len(text))),
                    severity=Severity.WARNING,
                    subject=edit.subject,
                )
            )
            continue
        pieces.append(text[cursor : edit.start])
        pieces.append(edit.replacement)
        cursor = edit.end
        applied.append(edit)
    pieces.append(text[cursor:])
    return FixResult("".join(pieces), tuple(applied), tuple(rejected), tuple(diagnostics))
