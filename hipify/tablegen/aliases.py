"""Enumerators that CUDA declares with the value of another of the same enum (a deprecated spelling kept for old
code: ``CU_CTX_BLOCKING_SYNC = 0x04`` beside ``CU_CTX_SCHED_BLOCKING_SYNC = 0x04``) are the same value to every
program, so they take that enumerator's targets where they have none of their own."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from ..knowledge.table import Row
from .sides import cuda_index
from .sources import ApiSpec

_USABLE = ("supported", "deprecated")


def _same_values(cache: Path, specs: Iterable[ApiSpec]) -> dict[str, list[str]]:
    """Enumerator -> the others its enum declares with the same literal value (CUDA 13's headers)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for spec in specs:
        index = cuda_index(cache, "cu13", spec.cuda, spec)
        for name in sorted(index.names):
            hit = index.best(name)
            if hit is not None and hit.decl.kind == "enum_constant" and hit.decl.parent and hit.decl.value:
                groups.setdefault((hit.decl.parent, hit.decl.value), []).append(name)
    return {name: [o for o in names if o != name] for names in groups.values() if len(names) > 1 for name in names}


def same_value_aliases(rows: dict[str, Row], cache: Path, specs: Iterable[ApiSpec]) -> dict[str, Row]:
    out = dict(rows)
    for name, others in sorted(_same_values(cache, specs).items()):
        row = rows.get(name)
        if row is None or row.kind != "enum_constant" or row.hip_status in _USABLE:
            continue
        twin = next((rows[o] for o in others if o in rows and rows[o].hip_status in _USABLE), None)
        if twin is None:
            continue
        changes = {
            "hip": twin.hip,
            "hip_status": twin.hip_status,
            "hip_header": twin.hip_header,
            "hip_since": twin.hip_since,
            "source": "same-value-alias",
            "note": f"CUDA declares {name} with the value of {twin.cuda}: the same enumerator to every program",
        }
        if row.roc_status not in _USABLE and twin.roc_status in _USABLE:
            changes.update(
                roc=twin.roc, roc_status=twin.roc_status, roc_header=twin.roc_header, roc_since=twin.roc_since
            )
        out[name] = replace(row, **changes)  # type: ignore[arg-type]
    return out
