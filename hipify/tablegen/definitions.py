"""Which parameter lists HIP's headers define a device function for (``atomicMin(float*, float)``): CUDA code that
defines one of them itself, for GPUs or CUDA versions without it, redefines HIP's under HIP."""

from __future__ import annotations

from dataclasses import replace

from ..knowledge.table import Row
from .headers import HeaderIndex


def with_hip_definitions(claimed: dict[str, Row], hip: HeaderIndex) -> dict[str, Row]:
    """``claimed`` with ``hip_definitions`` filled for the device-function rows whose HIP target has a body in HIP's
    headers, for every overload whose parameters are plain types."""
    out = dict(claimed)
    for name, row in claimed.items():
        if row.kind != "device_function" or not row.hip or row.hip_status == "unsupported":
            continue
        lists = {
            _without_macros(hit.decl.exact_param_types, hip)
            for hit in hip.names.get(row.hip, ())
            if hit.decl.kind == "function" and hit.decl.defined and hit.decl.exact_param_types is not None
        }
        if lists:
            out[name] = replace(row, hip_definitions=" ".join(f"({', '.join(p)})" for p in sorted(lists)))
    return out


def _without_macros(types: tuple[str, ...], hip: HeaderIndex) -> tuple[str, ...]:
    """The types without the attribute macros HIP's headers write into them (``MAYBE_UNDEF double``)."""
    return tuple(" ".join(w for w in t.split(" ") if not _is_macro(w, hip)) for t in types)


def _is_macro(word: str, hip: HeaderIndex) -> bool:
    hit = hip.best(word.rstrip("*&"))
    return hit is not None and hit.decl.kind == "macro"
