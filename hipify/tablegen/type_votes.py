"""Types (and their enum constants) paired through the signatures of paired functions, HIP and ROC alike: once
cuMemPoolDestroy(CUmemoryPool) is paired with hipMemPoolDestroy(hipMemPool_t), CUmemoryPool -> hipMemPool_t; once
cublasSsymv(..., cublasFillMode_t uplo, ...) is paired with rocblas_ssymv(..., rocblas_fill uplo, ...),
cublasFillMode_t -> rocblas_fill for --roc, and CUBLAS_FILL_MODE_LOWER takes the rocBLAS constant whose value its
hipBLAS target has (HIPBLAS_FILL_MODE_LOWER == rocblas_fill_lower == 122: hipBLAS mirrors rocBLAS's values).

Only a type without a usable target of that flavour is paired, only when every vote names the same type, and only
with a type of the function's own library family (a rocBLAS function does not give cudaDataType a ROC name)."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from ..knowledge.table import Row
from . import rules
from .headers import HeaderIndex
from .matcher import Matcher
from .sides import cuda_index
from .sources import spec
from .target import Target

SOURCE = "signature"
_USABLE = frozenset({"supported", "deprecated", "experimental"})
_TYPE_KINDS = frozenset({"type", "enum"})
# a HIP or ROC library's own type (not a vector type such as uint4 that some position happens to hold)
_LIBRARY_NAME = re.compile(r"^(i?hip|HIP|roc|miopen)")


def _side(row: Row, roc: bool) -> tuple[str, str]:
    return (row.roc, row.roc_status) if roc else (row.hip, row.hip_status)


def _plain(t: str) -> tuple[str, int]:
    t = t.removeprefix("const ")
    base = t.rstrip("*")
    return base, len(t) - len(base)


def _votes(rows: dict[str, Row], cache: Path, hip: HeaderIndex, roc: bool) -> dict[str, set[str]]:
    indexes: dict[str, HeaderIndex] = {}
    votes: dict[str, set[str]] = defaultdict(set)
    # an enum pairs with an enum, any other type with a non-enum (a misaligned position does not pair
    # cudnnForwardMode_t with a descriptor type): enums are the names constants name as their parent
    enums = {r.parent for r in rows.values() if r.kind == "enum_constant"} | {
        r.cuda for r in rows.values() if r.kind == "enum"
    }
    hip_enums = {h.decl.parent for hits in hip.names.values() for h in hits if h.decl.kind == "enum_constant"}
    for row in rows.values():
        target, status = _side(row, roc)
        if row.kind != "function" or not target or status not in _USABLE or "::" in row.cuda:
            continue
        if row.api not in indexes:
            indexes[row.api] = cuda_index(cache, "cu13", spec(row.api).cuda, spec(row.api))
        cuda_decls = [h.decl for h in indexes[row.api].names.get(row.cuda, ()) if h.decl.kind == "function"]
        hip_decls = [h.decl for h in hip.names.get(target, ()) if h.decl.kind == "function"]
        for cd in cuda_decls:
            for hd in hip_decls:
                if not cd.param_types or len(cd.param_types) != len(hd.param_types):
                    continue
                for ct, ht in zip(cd.param_types, hd.param_types, strict=True):
                    (cb, cdepth), (hb, hdepth) = _plain(ct), _plain(ht)
                    other = rows.get(cb)
                    if (
                        cdepth == hdepth
                        and cb
                        and hb
                        and other is not None
                        and other.kind in _TYPE_KINDS
                        and other.api == row.api
                        and _side(other, roc)[1] not in _USABLE
                        and _LIBRARY_NAME.match(hb)
                        and any(h.decl.kind in _TYPE_KINDS for h in hip.names.get(hb, ()))
                        and (cb in enums) == (hb in hip_enums)
                    ):
                        votes[cb].add(hb)
    return votes


def _all_constant_values(hip: HeaderIndex) -> dict[str, dict[str, list[str]]]:
    """enum -> value -> the constants of that HIP/ROC enum with that value."""
    out: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for name, hits in hip.names.items():
        for h in hits:
            if h.decl.kind == "enum_constant" and h.decl.value:
                out[h.decl.parent][h.decl.value].append(name)
    return out


def _value(hip: HeaderIndex, constant: str) -> str:
    return next((h.decl.value for h in hip.names.get(constant, ()) if h.decl.kind == "enum_constant"), "")


def pair_types_by_signature(rows: dict[str, Row], cache: Path, matcher: Matcher) -> dict[str, Row]:
    hip = matcher.hip.current
    by_value = _all_constant_values(hip)
    out = dict(rows)
    for roc in (False, True):
        side = "roc" if roc else "hip"
        paired = {cuda: next(iter(h)) for cuda, h in _votes(out, cache, hip, roc).items() if len(h) == 1}
        for cuda, name in sorted(paired.items()):
            t = matcher.target(name, SOURCE)
            if t.name and t.status in _USABLE:
                out[cuda] = _retarget(out[cuda], side, t, f"paired through the signatures of paired functions: {name}")
        # the constants of the enums with a target of this flavour: by name, else (ROC) by their HIP target's value
        # (hipBLAS mirrors rocBLAS's values: HIPBLAS_OP_N == rocblas_operation_none == 111)
        targets = {r.cuda: _side(r, roc)[0] for r in out.values() if _side(r, roc)[1] in _USABLE}
        for row in sorted(out.values(), key=lambda r: r.cuda):
            enum = targets.get(row.parent, "") if row.kind == "enum_constant" else ""
            if not enum or _side(row, roc)[1] in _USABLE:
                continue
            same = by_value.get(enum, {}).get(_value(hip, row.hip), []) if roc and row.hip else []
            if len(same) != 1:
                same = matcher.constants.get(enum, {}).get(rules.normalized(row.cuda), [])
            if len(same) == 1:
                t = matcher.target(same[0], SOURCE)
                if t.name and t.status in _USABLE:
                    out[row.cuda] = _retarget(row, side, t, f"{same[0]} has the value of {row.hip}" if roc else "")
    return out


def _retarget(row: Row, side: str, t: Target, note: str) -> Row:
    changes = {side: t.name, f"{side}_status": t.status, f"{side}_header": t.header, f"{side}_since": t.since}
    changes["source"] = row.source if (side == "roc" and row.hip) else SOURCE
    changes["note"] = "; ".join(n for n in (row.note, note) if n)
    return Row.from_json({**row.to_json(), **changes})
