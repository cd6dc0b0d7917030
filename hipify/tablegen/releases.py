"""One row per CUDA name from the tables generated for each target release (``sources.TARGET_RELEASES``): the
newest release's row, holding an older release's view (``Row.by_rocm``) where that one's target differs.

A target that only a newer release has needs no view: its ``hip_since``/``roc_since`` already tells a translation
for the older release that it is not there (reported, not emitted). A view records what the since-values cannot:
another target (``cudaMemAdvise``: hipMemAdvise_v2 on 7.2, hipMemAdvise on 6.4), a target the newer release
removed (hipBLAS's ``_v2`` functions), another signature verdict, or another macro to define first
(``HIP_ENABLE_WARP_SYNC_BUILTINS``, which 7.x no longer needs).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from ..knowledge.table import TARGET_FIELDS, Row, release_version
from .fetch import log

# The fields of each side's target: an older release that has no target on a side, where the newer one's appeared
# after it, needs nothing of that side recorded.
_SIDES = {
    "hip": (
        "hip",
        "hip_status",
        "hip_header",
        "hip_since",
        "hip_requires",
        "hip_signature",
        "hip_signature_diff",
        "hip_definitions",
        "transform",
    ),
    "roc": ("roc", "roc_status", "roc_header", "roc_since", "roc_requires", "roc_signature", "roc_signature_diff"),
}
# Fields that explain a row without changing what a translation writes: recorded only beside a change that does.
_EXPLAINING = frozenset(("source", "note"))
_CUDA_FIELDS = ("kind", "api", "parent", "cuda_header", "cuda_since", "cuda_deprecated", "cuda_removed")


def _absent(row: Row, side: str) -> bool:
    target, status = (row.hip, row.hip_status) if side == "hip" else (row.roc, row.roc_status)
    return not target and status == "unsupported"


def _later(since: str, release: str) -> bool:
    return bool(since) and release_version(since) > release_version(release)


def view_changes(newest: Row, older: Row, release: str) -> dict[str, object]:
    """The target fields in which ``older`` (``release``'s row) differs from ``newest`` and that a translation for
    ``release`` cannot learn from ``newest``'s since-values."""
    changed = {f: getattr(older, f) for f in TARGET_FIELDS if getattr(older, f) != getattr(newest, f)}
    for side, names in _SIDES.items():
        since = newest.hip_since if side == "hip" else newest.roc_since
        if _absent(older, side) and _later(since, release):
            for name in names:
                changed.pop(name, None)
    return changed if set(changed) - _EXPLAINING else {}


def _missing_row(older: Row) -> Row:
    """The newest release's row for a name only an older release's generation made (a HIP library's mark of a CUDA
    API that a later release no longer carries): its targets are gone there."""
    return replace(
        older,
        hip_status="removed" if older.hip else older.hip_status,
        roc_status="removed" if older.roc else older.roc_status,
    )


def merge_releases(tables: dict[str, dict[str, Row]]) -> dict[str, Row]:
    """``tables``: release -> its generation's rows by CUDA name, oldest release first. The newest release's rows,
    each with the views of the older releases where they differ."""
    releases = list(tables)
    newest = tables[releases[-1]]
    merged: dict[str, Row] = dict(newest)
    for release in releases[:-1]:
        for name, older in tables[release].items():
            row = merged.get(name)
            if row is None:
                row = merged[name] = _missing_row(older)
            moved = [f for f in _CUDA_FIELDS if getattr(row, f) != getattr(older, f)]
            if moved:
                log(f"{name}: the generations for ROCm {release} and {releases[-1]} disagree on {', '.join(moved)}")
            changes = view_changes(row, older, release)
            if changes:
                view = replace(row, by_rocm=(), **cast(dict[str, Any], changes))
                merged[name] = replace(row, by_rocm=(*row.by_rocm, (release, view)))
    return merged
