"""The rows of one API family: each CUDA name matched to its HIP and ROC targets."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from ..knowledge.table import Row
from . import rules
from .entries import Entry, FamilyNames, family_names
from .enum_inference import infer_constants_by_prefix, infer_enums_from_members
from .matcher import Matcher, Query
from .plumbing import attribute_macro_row
from .requires import preincluded_guard, required_macro
from .sides import HipSide
from .sources import CUDA_FAMILIES, ApiSpec
from .standard_types import standard_target, standard_typedefs
from .target import Target
from .transforms import derive_transform

_VERSIONED = re.compile(r"_v\d+$")


def api_rows(cache: Path, spec: ApiSpec, matcher: Matcher, library_version: str = "") -> list[Row]:
    names = family_names(cache, spec, matcher.hip.current)
    # Types first, so that enum constants can use their parent's target.
    order = sorted(names.entries, key=lambda n: (names.entries[n].kind == "enum_constant", n))
    hip_targets = _hip_targets(spec, names.entries, order, matcher)
    _macro_aliases(names, hip_targets, matcher)
    infer_enums_from_members(names.entries, hip_targets, matcher)
    infer_constants_by_prefix(names.entries, hip_targets, matcher)
    roc_targets = _roc_targets(spec, names.entries, order, matcher)
    _versioned_types(names.entries, hip_targets, roc_targets)
    for name, standard in standard_typedefs(cache / "cuda" / "cu13", spec.cuda).items():
        entry = names.entries.get(name)
        versioned = _VERSIONED.sub("", name) in names.entries and _VERSIONED.search(name) is not None
        if entry is not None and entry.kind == "type" and not hip_targets[name].name and not versioned:
            # library-neutral: the same with --roc
            hip_targets[name] = roc_targets[name] = standard_target(name, standard)
    rows = _namespace_rows(spec, matcher.hip)
    for name in order:
        entry = names.entries[name]
        rows.append(_row(spec, names, entry, hip_targets[name], roc_targets[name], matcher, library_version))
    rows += [attribute_macro_row(name, spec.api, header) for name, header in sorted(names.dropped_macros.items())]
    return rows


def _macro_aliases(names: FamilyNames, targets: dict[str, Target], matcher: Matcher) -> None:
    """A CUDA macro standing for a function (``#define nvtxMark nvtxMarkA``, one of two ``#if`` branches) whose target
    is a function-like macro on the HIP side too (``#define roctxMark(message) roctxMarkA(message)``) takes the
    function's target: the same call, and one the signature check can compare."""
    current = matcher.hip.current
    for name, entry in names.entries.items():
        own = targets.get(name)
        hit = current.best(own.name) if own is not None and own.name else None
        if entry.kind != "function" or entry.decl.kind != "macro" or hit is None or hit.decl.kind != "macro":
            continue
        for alias in dict.fromkeys(h.decl.alias_of for h in names.current.names.get(name, ())):
            aliased = targets.get(alias)
            found = current.best(aliased.name) if aliased is not None and aliased.name else None
            if aliased is not None and found is not None and found.decl.kind == "function":
                targets[name] = aliased
                break


def _versioned_types(entries: dict[str, Entry], hip: dict[str, Target], roc: dict[str, Target]) -> None:
    """A versioned type (CUsurfObject_v1, which CUDA's CUsurfObject is a typedef of) without a target of its own
    takes its plain name's: code declares variables of either and passes them to the same functions."""
    for name, entry in entries.items():
        plain = _VERSIONED.sub("", name)
        if entry.kind != "type" or plain == name or plain not in entries:
            continue
        for targets in (hip, roc):
            found = targets.get(plain)
            if not targets[name].name and found is not None and found.name:
                targets[name] = replace(found, note="; ".join(n for n in (found.note, f"as {plain}") if n))


def _hip_targets(spec: ApiSpec, entries: dict[str, Entry], order: list[str], matcher: Matcher) -> dict[str, Target]:
    targets: dict[str, Target] = {}
    for name in order:
        entry = entries[name]
        if spec.api == "dnn":  # cuDNN has no HIP-named equivalent; MIOpen is the ROC target
            targets[name] = Target()
            continue
        cands = rules.hip_candidates(spec.api, name, entry.kind)
        # a versioned name (cuMemAlloc_v2) also takes the target of the plain one's backend pair
        plain = _VERSIONED.sub("", name)
        if plain != name and plain in matcher.pairs:
            cands = sorted(matcher.pairs[plain]) + cands
        parent = entry.decl.parent
        ptarget = targets[parent].name if parent in targets else ""
        query = Query(
            name,
            tuple(cands),
            ptarget,
            type_like=entry.kind in ("type", "enum") and spec.api in ("runtime", "driver"),
            value=entry.decl.value,
            twin=spec.api == "driver" and entry.kind in ("enum_constant", "macro"),
            tag=entry.decl.tag,
        )
        t = targets[name] = matcher.resolve(query)
        if spec.api == "runtime" and t.name and entry.kind in ("enum_constant", "macro"):
            matcher.twins.setdefault(rules.normalized(name), t.name)
        if entry.kind == "enum_constant" and t.name and ptarget and entry.decl.value and t.status != "removed":
            matcher.by_value.setdefault((ptarget, entry.decl.value), t.name)
    return targets


def _roc_targets(spec: ApiSpec, entries: dict[str, Entry], order: list[str], matcher: Matcher) -> dict[str, Target]:
    targets: dict[str, Target] = {}
    for name in order:
        entry = entries[name]
        cands = rules.roc_candidates(spec.api, name, entry.kind)
        parent = entry.decl.parent
        ptarget = targets[parent].name if parent in targets else ""
        found = cands or ptarget
        targets[name] = matcher.resolve(Query(name, tuple(cands), ptarget, use_pairs=False)) if found else Target()
    return targets


def _namespace_rows(spec: ApiSpec, hip: HipSide) -> list[Row]:
    """cub -> hipcub, where hipCUB declares names in its namespace."""
    rows: list[Row] = []
    for _prefix, ns in spec.namespace:
        hip_ns = "hip" + ns

        def declares(release: str, hip_ns: str = hip_ns) -> bool:
            return any(n.startswith(hip_ns + "::") for n in hip.indexes[release].names)

        if any(n.startswith(hip_ns + "::") for n in hip.current.names):
            rows.append(
                Row(
                    cuda=ns,
                    hip=hip_ns,
                    kind="namespace",
                    api=spec.api,
                    hip_status="supported",
                    cuda_header=f"{ns}/{ns}.cuh",
                    hip_header=f"{hip_ns}/{hip_ns}.hpp",
                    hip_since=next((r for r in hip.indexes if declares(r)), ""),
                    source="naming",
                )
            )
    return rows


def _cuda_versions(names: FamilyNames, name: str, library_version: str) -> tuple[str, str]:
    """(cuda_since, cuda_deprecated): the first scanned version declaring the name and marking it deprecated. A
    family scanned in one version only states deprecation (cuDNN in its own version numbers)."""
    newest = CUDA_FAMILIES[-1][1]
    cur = names.current
    if not names.older:
        return "", (library_version or newest) if cur.deprecated(name) else ""
    versions = [v for v, idx in names.older if name in idx] + ([newest] if name in cur else [])
    deprecated = [v for v, idx in names.older if idx.deprecated(name)] + ([newest] if cur.deprecated(name) else [])
    return (versions[0] if versions else ""), (deprecated[0] if deprecated else "")


def _row(
    spec: ApiSpec,
    names: FamilyNames,
    entry: Entry,
    hip_t: Target,
    roc_t: Target,
    matcher: Matcher,
    library_version: str,
) -> Row:
    requires = required_macro(matcher.hip, hip_t)
    if requires:
        bypass = preincluded_guard(matcher, hip_t, requires)
        if bypass is not None:
            hip_t, requires = bypass, ""
    cuda_since, cuda_deprecated = _cuda_versions(names, entry.name, library_version)
    beta = f"HIP documents {hip_t.name} as beta (complete, may still change)" if hip_t.beta else ""
    kind = entry.kind
    return Row(
        cuda=entry.name,
        hip=hip_t.name,
        roc=roc_t.name,
        kind="device_function" if spec.api == "device" and kind == "function" else kind,
        api=spec.api,
        hip_status=hip_t.status,
        roc_status=roc_t.status,
        cuda_header=entry.header,
        hip_header=hip_t.header,
        roc_header=roc_t.header,
        parent=entry.decl.parent if kind == "enum_constant" else "",
        cuda_since=cuda_since,
        cuda_deprecated=cuda_deprecated,
        cuda_removed=entry.removed,
        hip_since=hip_t.since,
        roc_since=roc_t.since,
        hip_requires=requires,
        transform=derive_transform(names.current, matcher.hip.current, entry.name, hip_t.name)
        if kind == "function"
        else None,
        source=hip_t.source or roc_t.source,
        note="; ".join(n for n in (hip_t.note, beta) if n),
    )
