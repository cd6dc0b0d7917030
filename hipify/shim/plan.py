"""What a project's single-source header holds, decided from the project's own translation.

The project is translated as usual, in memory (the same scan, include graph and planner as a translated copy);
the header is the part of that translation a definition can carry: the HIP headers standing for the CUDA headers
the project includes, the macros they need first, the compatibility entries the translation relies on, and one
definition per CUDA name the project uses that HIP spells otherwise (``definitions.definition_for``, from the
planner's decision on the name's row). What no definition can carry is a finding at its place (``findings``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..compat import load_catalog
from ..knowledge.table import MappingTable, table_for
from ..model import Diagnostic
from ..options import Options
from ..project.graph import ProjectModel
from ..rewrite.availability import compat_provided
from ..rewrite.index import index_of, macro_needed, required_macros
from ..rewrite.status import decide
from ..sources.fileio import SourceError, read_source
from ..translation.api import Result, translate_project
from .definitions import PLACEHOLDER, Definition, definition_for, placeholder_enum
from .findings import cannot_shim, needs_register_accepted

RUNTIME_HEADER = "hip/hip_runtime.h"
_NAMESPACE_EDIT = "::"  # the namespace rule's subject: the CUDA namespace path and "::"


@dataclass(frozen=True)
class StandIn:
    """A CUDA header the project includes, and what stands for it: HIP headers, or compatibility entries."""

    cuda: str  # as the project spells it in #include
    hip: tuple[str, ...]  # HIP headers it includes
    compat: bool = False  # the compatibility entries stand for it


@dataclass(frozen=True)
class ShimPlan:
    rocm: tuple[int, int]
    required: tuple[str, ...]  # macros HIP's headers test, defined before the first of them
    stand_ins: tuple[StandIn, ...]  # by CUDA header name
    compat_entries: tuple[str, ...]  # names of the compatibility entries the translation relies on
    definitions: tuple[Definition, ...]  # by CUDA name
    namespaces: tuple[tuple[str, str], ...]  # (CUDA namespace path, HIP namespace path)
    accepts_register: bool  # some file uses `register`, which hipcc rejects in C++17
    findings: tuple[Diagnostic, ...]  # what cannot be shimmed, by path and place
    own_names: tuple[str, ...]  # table names the project declares itself: left to the project
    other_includes: tuple[str, ...] = ()  # headers the project includes that are neither its own nor stand-ins
    files: int = 0
    uses: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # covered name -> files using it

    @property
    def covered(self) -> frozenset[str]:
        """The CUDA names (and headers) the header stands for."""
        return frozenset(d.name for d in self.definitions) | {s.cuda for s in self.stand_ins}


def plan_shim(texts: Mapping[str, str], options: Options | None = None, table: MappingTable | None = None) -> ShimPlan:
    """The header for the project whose files are ``texts`` (path on disk -> text)."""
    options = options or Options()
    table = table_for(options) if table is None else table
    project = translate_project(texts, options, table)
    model, results = project.model, project.results
    sources = [p for p in texts if model.key_of(p) in model.scans]
    # Every file the project's files reach counts (a header found through -I outside the paths given too).
    reached = {model.key_of(p): p for p in sources} | {k: k for k in model.scans if k not in model.translated}
    declared = _declared_by_project(model, table, options, texts)
    uses = _uses(model, reached, table)
    definitions = _definitions(uses, table, options, declared)
    entries = {name for result in results.values() for name in result.compat}
    entries |= _mask_overloads(results.values(), uses, index_of(table).mask_functions, options)
    placeholders = frozenset(
        name for d in definitions if d.section == PLACEHOLDER for name in (d.name, *_enumerators(table)[d.name])
    )
    compiles = frozenset(
        b.name for scan in model.scans.values() for b in scan.blocked if b.missing and set(b.missing) <= placeholders
    )
    findings = {
        path: cannot_shim(path, texts[path], results[path], placeholders, compiles)
        for path in sources
        if path in results
    }
    covered = {d.name for d in definitions}
    stand_ins, others = _includes(model, reached, table, options)
    return ShimPlan(
        rocm=options.rocm_version,
        required=_required(uses, entries, results.values(), table, options),
        stand_ins=stand_ins,
        compat_entries=tuple(sorted(entries)),
        definitions=tuple(definitions),
        namespaces=_namespaces(results.values(), table),
        accepts_register=needs_register_accepted(results.values()),
        findings=tuple(d for path in sorted(findings) for d in findings[path]),
        own_names=tuple(sorted(declared & set(uses))),
        other_includes=others,
        files=len(sources),
        uses={name: tuple(sorted(paths)) for name, paths in sorted(uses.items()) if name in covered},
    )


def _uses(model: ProjectModel, reached: Mapping[str, str], table: MappingTable) -> dict[str, set[str]]:
    """Table name -> the files (of ``reached``: file key -> path) that use it: what each file's scan says it uses,
    and what its declarations that need APIs HIP lacks use (the translation may disable those; in the one source
    they stay, and are compiled)."""
    uses: dict[str, set[str]] = {}
    for key, path in reached.items():
        scan = model.scans[key]
        words = scan.uses.set.union(*(b.uses | set(b.missing) for b in scan.blocked))
        for name in words:
            if name in table.by_name:
                uses.setdefault(name, set()).add(path)
    return uses


def _definitions(
    uses: Mapping[str, object], table: MappingTable, options: Options, declared: frozenset[str]
) -> list[Definition]:
    """One definition per used name the header stands for (none for the project's own names, nor for those the
    compatibility entries provide), then the enumerations HIP lacks."""
    index = index_of(table)
    compat_names = compat_provided(options)
    definitions: list[Definition] = []
    for name in sorted(uses):
        row = table.by_name[name]
        if row.kind in ("header", "namespace") or name in declared or name in compat_names:
            continue
        definition = definition_for(row, decide(row, options, index.releases))
        if definition is not None:
            definitions.append(definition)
    return definitions + _placeholder_enums(uses, table, options, declared)


def _required(
    uses: Mapping[str, object], entries: Iterable[str], results: Iterable[Result], table: MappingTable, options: Options
) -> tuple[str, ...]:
    """Macros HIP's headers test, defined before them: what the used rows' targets need (``hip_requires``), what the
    compatibility entries need, and what the translation defines (HPY006)."""
    index = index_of(table)
    catalog = load_catalog()
    required: set[str] = set()
    for name in uses:
        row = table.by_name[name]
        if row.kind not in ("header", "namespace") and decide(row, options, index.releases).target:
            required.update(required_macros(row))
    for entry in catalog.closure(catalog.by_entry_name[n] for n in entries):
        required.update(entry.defines)
    required.update(e.subject for r in results for e in r.edits if e.code == "HPY006")
    return tuple(sorted(m for m in required if macro_needed(m, options.rocm_version)))


def _placeholder_enums(
    uses: Mapping[str, object], table: MappingTable, options: Options, declared: frozenset[str]
) -> list[Definition]:
    """The enumerations HIP lacks altogether whose name or enumerators the project uses (``definitions``)."""
    index = index_of(table)
    wanted: set[str] = set()
    for name in uses:
        row = table.by_name[name]
        enum = row.parent if row.kind == "enum_constant" else name
        if enum not in declared and enum in _enumerators(table):
            wanted.add(enum)
    out: list[Definition] = []
    for enum in sorted(wanted):
        members = (enum, *_enumerators(table)[enum])
        if any(decide(table.by_name[n], options, index.releases).target for n in members if n in table.by_name):
            continue  # HIP has the type or one of its values: not an enumeration HIP lacks altogether
        out.append(placeholder_enum(enum, _enumerators(table)[enum]))
    return out


@lru_cache(maxsize=4)
def _enumerators(table: MappingTable) -> dict[str, tuple[str, ...]]:
    """Enumeration (or its typedef) -> its enumerators, as the table's rows of enum constants name their parent."""
    found: dict[str, list[str]] = {}
    for row in table:
        if (
            row.kind == "enum_constant"
            and row.parent
            and row.parent in table.by_name
            and re.fullmatch(r"\w+", row.cuda)
        ):
            found.setdefault(row.parent, []).append(row.cuda)
    return {enum: tuple(names) for enum, names in found.items()}


def _mask_overloads(
    results: Iterable[Result], uses: Mapping[str, object], masks: frozenset[str], options: Options
) -> set[str]:
    """The compatibility entries taking a 32-bit lane mask, where the translation widens one in the code
    (HPY008: ``0xffffffff`` becomes 64-bit): a header cannot edit the mask, the overloads widen it where it is
    passed."""
    if not any(e.code == "HPY008" for r in results for e in r.edits):
        return set()
    catalog = load_catalog()
    found = (catalog.for_name(name, options.rocm_version) for name in sorted(masks) if name in uses)
    return {entry.name for entry in found if entry is not None}


def _declared_by_project(
    model: ProjectModel, table: MappingTable, options: Options, texts: Mapping[str, str]
) -> frozenset[str]:
    """Table names the project declares itself (its own overload of cudaMallocHost): left to the project, as the
    translation leaves its declarations. Not those it only defines as a macro (the project's definition, after the
    header's, takes over where it stands; an ``#ifndef`` polyfill for an old toolkit is skipped), nor those it
    declares only as their HIP counterpart (``typedef __hip_bfloat162 __nv_bfloat162;`` in a HIP branch: the
    hand-written header this one replaces)."""
    macros = {name for scan in model.scans.values() for name in scan.defines}
    index = index_of(table)
    by_key = {model.key_of(path): text for path, text in texts.items()}
    own: set[str] = set()
    for key, scan in model.scans.items():
        for name in scan.shadows:
            row = table.by_name.get(name)
            if row is None or name in macros or name in own:
                continue
            target = decide(row, options, index.releases).target
            if not target or not _aliases(_text_of(key, by_key), name, target):
                own.add(name)
    return frozenset(own)


def _aliases(text: str, name: str, target: str) -> bool:
    """Does ``text`` declare ``name`` as ``target`` (a typedef or an alias declaration) and no other way?"""
    n, t = re.escape(name), re.escape(target)
    alias = re.compile(rf"\btypedef\s+(?:struct\s+|enum\s+)?{t}\s+{n}\s*;|\busing\s+{n}\s*=\s*{t}\s*;")
    return alias.search(text) is not None


def _text_of(key: str, by_key: Mapping[str, str]) -> str:
    if key in by_key:
        return by_key[key]
    try:
        return read_source(Path(key)).text
    except SourceError:
        return ""


def _includes(
    model: ProjectModel, files: Iterable[str], table: MappingTable, options: Options
) -> tuple[tuple[StandIn, ...], tuple[str, ...]]:
    """The CUDA headers the project's files include (not files of the project), with what stands for each; and the
    other headers they include that are not the project's (the system's, other libraries')."""
    catalog = load_catalog()
    index = index_of(table)
    found: dict[str, StandIn] = {}
    others: set[str] = set()
    for key in files:
        here = os.path.dirname(key)
        for include in model.scans[key].includes:
            name = include.name.strip()
            if name in found or model.resolved.get((here, include.name, include.angled), ("", ""))[0]:
                continue  # seen, or a file of the project
            if options.compat_header and catalog.for_header(name, options.rocm_version) is not None:
                found[name] = StandIn(name, (RUNTIME_HEADER,), compat=True)
                continue
            row = table.by_name.get(name)
            target = decide(row, options, index.releases).target if row is not None and row.kind == "header" else ""
            if target and target != name:
                found[name] = StandIn(name, (target,))
            else:
                others.add(name)
    return tuple(found[name] for name in sorted(found)), tuple(sorted(others))


def _namespaces(results: Iterable[Result], table: MappingTable) -> tuple[tuple[str, str], ...]:
    """The CUDA namespaces the translation renames (``cub::`` -> ``hipcub::``), with HIP's."""
    found: dict[str, str] = {}
    for result in results:
        for edit in result.edits:
            if edit.code == "HPY001" and edit.subject.endswith(_NAMESPACE_EDIT):
                path = edit.subject[: -len(_NAMESPACE_EDIT)]
                row = table.by_name.get(path)
                if row is not None and row.kind == "namespace" and row.hip:
                    found[path] = row.hip
    return tuple(sorted(found.items()))
