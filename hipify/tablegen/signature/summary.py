"""The generator's per-family count of function rows by signature status, for HIP and for ROC/MIOpen targets."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ...knowledge.table import Row
from .verify import DEFINE, DIFFERS, NEWER, OLDER, SAME, SIBLING, UNCHECKED

STATUSES = (SAME, SIBLING, DEFINE, OLDER, NEWER, DIFFERS, UNCHECKED)


def counts(rows: Iterable[Row], roc: bool) -> dict[str, Counter[str]]:
    """api -> signature status -> function rows (those with a checked target of that flavour)."""
    out: dict[str, Counter[str]] = {}
    for row in rows:
        status = row.roc_signature if roc else row.hip_signature
        if status:
            out.setdefault(row.api, Counter())[status] += 1
    return out


def render(rows: list[Row]) -> str:
    lines = []
    for roc, title in ((False, "HIP targets"), (True, "ROC targets (MIOpen for dnn)")):
        table = counts(rows, roc)
        lines.append(f"signatures of function rows, {title}:")
        lines.append(f"  {'api':10}" + "".join(f"{s:>10}" for s in STATUSES) + f"{'matched':>10}")
        total: Counter[str] = Counter()
        for api in sorted(table):
            total.update(table[api])
            lines.append(_line(api, table[api]))
        lines.append(_line("all", total))
    return "\n".join(lines)


def _line(api: str, c: Counter[str]) -> str:
    matched = c[SAME] + c[SIBLING] + c[DEFINE] + c[NEWER]
    share = f"{100 * matched / sum(c.values()):.1f}%" if c else "-"
    return f"  {api:10}" + "".join(f"{c[s]:>10}" for s in STATUSES) + f"{share:>10}"
