"""Which API families a file writes with their ROC library's names (``--roc``; cuDNN with ``--miopen``).

A family's types, enumerators and functions must come from one library: ``rocblas_handle`` beside
``hipblasCreate`` does not compile. So a file gets a family's ROC-side names (and its ROC header) only if every
row of that family it uses has a ROC-side target that takes what the translated call passes (``roc_signature`` is
not ``differs``), and no other file of the project needs the family's HIP names (``ProjectFacts.hip_families``: a
header's types reach every file that includes it). Otherwise the family keeps its HIP names in this file, said
once (HPY114). A family without HIP names (cuDNN) cannot fall back: a file using cuDNN names MIOpen lacks, or
calls whose arguments MIOpen's declaration does not take, is reported once as needing hand work (HPY115); what
MIOpen has is still translated, and each such use is reported where it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..knowledge.table import Row
from ..lexing.facts import Identifier
from ..options import Options
from .index import TableIndex
from .status import decide, has_hip_names, library_flag

_NOT_APIS = ("header", "namespace")


def wants_roc(api: str, options: Options, index: TableIndex) -> bool:
    """Do the options ask for this family's ROC-side names (and does it have a ROC library)?"""
    return api in index.roc_libraries and bool(getattr(options, library_flag(api)))


def family_of(row: Row, index: TableIndex) -> str:
    """The API family of a row; a header row takes the family whose names its ROC-side header declares."""
    if row.kind == "header":
        return index.header_families.get(row.cuda, row.api)
    return row.api


def roc_gap(row: Row, options: Options, index: TableIndex) -> str:
    """Why using this row keeps its family from its ROC-side names under ``options`` ('' when it does not)."""
    if row.kind in _NOT_APIS or not wants_roc(row.api, options, index):
        return ""
    releases = index.releases
    if row.transform is not None and row.transform.kind == "remove":
        return ""  # deleted either way (calling-convention macros)
    roc = decide(row, options, releases, roc=True)
    if roc.target and roc.roc:
        if row.roc_signature == "differs":
            return f"{row.roc} does not take what a call of {row.cuda} passes"
        return ""
    if has_hip_names(row.api) and not decide(row, options, releases, roc=False).target:
        return ""  # no target either way: the HIP names lose nothing
    return f"{row.cuda} has no {index.roc_libraries[row.api]} equivalent"


@dataclass(frozen=True)
class Gap:
    family: str
    why: str
    offset: int  # the first use in the file that shows it (or of the family, when another file's shows it)
    elsewhere: bool = False  # another file of the project uses the name ``why`` is about


@dataclass(frozen=True)
class Flavour:
    """The file's choice of names per family."""

    options: Options
    index: TableIndex
    kept_hip: frozenset[str] = frozenset()  # families that want ROC names but keep their HIP names here
    kept: tuple[Gap, ...] = ()  # why (HPY114), one per family this file uses
    incomplete: tuple[Gap, ...] = ()  # families without HIP names whose use here needs hand work (HPY115)

    def uses_roc(self, family: str) -> bool:
        return wants_roc(family, self.options, self.index) and family not in self.kept_hip


def choose(
    options: Options,
    index: TableIndex,
    uses: Iterable[tuple[Identifier, Row]],
    hip_families: Iterable[tuple[str, str]],
) -> Flavour:
    """The file's choice from its ``uses`` (the table names it writes a target at, in order) and the families other
    files of the project keep with their HIP names (``ProjectFacts.hip_families``)."""
    if not (options.roc or options.miopen):
        return Flavour(options, index)
    gaps: dict[str, Gap] = {}
    first_use: dict[str, int] = {}
    seen: dict[str, str] = {}
    for ident, row in uses:
        if row.kind in _NOT_APIS or not wants_roc(row.api, options, index):
            continue
        first_use.setdefault(row.api, ident.start)
        why = seen.get(row.cuda)
        if why is None:
            why = seen[row.cuda] = roc_gap(row, options, index)
        if why and row.api not in gaps:
            gaps[row.api] = Gap(row.api, why, ident.start)
    kept = [g for g in gaps.values() if has_hip_names(g.family)]
    for family, why in hip_families:
        if family not in gaps and wants_roc(family, options, index):
            kept.append(Gap(family, why, first_use.get(family, -1), elsewhere=True))
    return Flavour(
        options,
        index,
        frozenset(g.family for g in kept),
        tuple(sorted((g for g in kept if g.offset >= 0), key=lambda g: g.offset)),
        tuple(sorted((g for g in gaps.values() if not has_hip_names(g.family)), key=lambda g: g.offset)),
    )
