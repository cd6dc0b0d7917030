"""Rewrite a CUDA type spelling the way translation rewrites the program's declarations: each identifier with a
type row becomes its target; ``struct``/``enum``/``union`` keywords go (the HIP name may be a typedef)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ...knowledge.table import Row
from ...rewrite.index import CUDA_LIKE

_WORD = re.compile(r"[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*")
_ELABORATION = frozenset({"struct", "enum", "union", "class"})
_TYPE_KINDS = frozenset({"type", "enum"})
USABLE = frozenset({"supported", "deprecated", "experimental"})


@dataclass(frozen=True)
class Mapped:
    spelling: str  # '' when a name has no usable target
    unmapped: tuple[str, ...] = ()  # CUDA type names without one


def target_of(row: Row, roc: bool) -> str:
    """The name translation writes for a type row: with --roc (or --miopen for cuDNN) the ROC name where there is
    a usable one, else the HIP name."""
    if roc and row.roc and row.roc_status in USABLE:
        return row.roc
    if row.api == "dnn":  # cuDNN translates only to MIOpen
        return ""
    return row.hip if row.hip_status in USABLE else ""


def map_spelling(spelling: str, lookup: Callable[[str], Row | None], roc: bool) -> Mapped:
    unmapped: list[str] = []

    def replace(m: re.Match[str]) -> str:
        word = m.group()
        if word in _ELABORATION:
            return ""
        row = lookup(word)
        if row is None and CUDA_LIKE.match(word):
            unmapped.append(word)  # a CUDA type the table does not know: translation leaves it as written
            return word
        if row is None or row.kind not in _TYPE_KINDS:
            return word
        target = target_of(row, roc)
        if not target:
            unmapped.append(word)
        return target or word

    text = " ".join(_WORD.sub(replace, spelling).split())
    return Mapped("" if unmapped else text, tuple(unmapped))
