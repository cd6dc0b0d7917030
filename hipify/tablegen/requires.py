"""Macros a HIP target needs defined before the HIP headers (`hip_requires`), and targets whose macro the translated
file cannot define in time (tested by headers hipcc pre-includes)."""

from __future__ import annotations

from dataclasses import replace

from .matcher import Matcher
from .sides import HipSide
from .target import Target


def required_macro(hip: HipSide, target: Target) -> str:
    """The configuration macro the HIP headers declare ``target`` under only (`#ifdef OCML_BASIC_ROUNDED_OPERATIONS`
    around __fadd_rz; `#ifdef HIP_ENABLE_WARP_SYNC_BUILTINS` around __shfl_sync): one the user defines, i.e. not
    a reserved name (__cplusplus, __HIP_PLATFORM_AMD__) and not one the HIP headers define themselves."""
    if not target.name or target.status == "removed":
        return ""
    cur = hip.current
    for macro in cur.required_macros(target.name):
        if macro.startswith("_") or any(h.decl.kind == "macro" for h in cur.names.get(macro, ())):
            continue
        return macro
    return ""


GUARD_SOURCE = "preincluded-guard"


def preincluded_guard(matcher: Matcher, target: Target, macro: str) -> Target | None:
    """A target declared only under ``macro`` in headers hipcc pre-includes (clang's __clang_hip_*.h: `#if defined
    OCML_BASIC_ROUNDED_OPERATIONS` around __fadd_rz) cannot be enabled by the translated file: its own `#define`
    comes after those headers were read. When every such declaration is a one-call wrapper passing its parameters
    through unchanged to one function declared without a user macro, the callee is the target
    (__fadd_rz(x, y) { return __ocml_add_rtz_f32(x, y); }); otherwise no target can compile and the row is
    unsupported (__frcp_rz(x) is __ocml_div_rtz_f32(1.0f, x)). None when the guard is one the file can define
    first (HIP_ENABLE_WARP_SYNC_BUILTINS, tested by HIP headers the file includes itself)."""
    hip = matcher.hip
    cur = hip.current
    hits = cur.names.get(target.name, ())
    if not hits or not all(h.header in hip.preincluded for h in hits):
        return None
    why = (
        f"HIP declares {target.name} ({target.header}) only under {macro}, which hipcc's pre-included clang "
        f"headers test before the translated file can define it"
    )
    callees = {h.decl.forwards for h in hits if h.decl.kind == "function"}
    callee = callees.pop() if len(callees) == 1 and all(h.decl.kind == "function" for h in hits) else ""
    t = matcher.target(callee, GUARD_SOURCE) if callee else Target()
    if t.status == "supported" and not required_macro(hip, t):
        return replace(
            t,
            note=f"{why}; its definition only calls {callee} with the same arguments, "
            f"declared unconditionally in {t.header}",
        )
    if t.name:
        because = f"it only calls {callee} with the same arguments, but {callee} is not declared unconditionally"
    else:
        calls = ", ".join(sorted({c for h in hits for c in h.decl.calls}))
        because = (
            f"its definition{f' (calling {calls})' if calls else ''} does not just pass its parameters on "
            f"to another function"
        )
    return Target(source=GUARD_SOURCE, note=f"{why}; {because}: no HIP translation compiles, so it is reported")
