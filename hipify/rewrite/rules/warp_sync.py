"""Warp lane masks. (The macro the ``*_sync`` functions need is defined by ``runtime_include``,
from ``rewrite.requirements``.)

Warp functions take a 64-bit lane mask on AMD (ROCm >= 6.2 static_asserts it). A literal
full 32-bit mask (``0xffffffff``, any ``u``/``l`` suffix) in argument 0 -- written there,
or as the value of an object-like macro ``#define``d in this file -- becomes
``0xffffffffffffffffULL`` (HPY008: all lanes of a warp are all lanes of a wavefront).
Any other mask is reported (HPY107).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...lexing.facts import Directive
from ...model import Diagnostic, Edit, Origin, Severity
from ..context import Context
from ..index import WIDE_LANE_MASKS_SINCE
from ..registry import Finding, register
from ..requirements import find_pairs, used

FULL_MASK_64 = "0xffffffffffffffffULL"
_FULL_32 = re.compile(r"0[xX][fF]{8}(?:[uU][lL]{0,2}|[lL]{1,2}[uU]?)?\Z")
_FULL_64 = re.compile(r"0[xX][fF]{16}(?:[uU][lL]{0,2}|[lL]{1,2}[uU]?)?\Z")
_IDENT = re.compile(r"[A-Za-z_]\w*\Z")
_ACTIVEMASK = re.compile(r"__activemask\s*\(\s*\)\Z")


def mask_findings(ctx: Context) -> list[Finding]:
    """The lane-mask edits and findings of the file (computed once)."""
    return ctx.memo(_all_masks)


def _all_masks(ctx: Context) -> list[Finding]:
    return list(_masks(ctx))


def unresolved_mask_calls(ctx: Context) -> frozenset[str]:
    """Warp functions called here with a mask the translation could not make 64-bit (HPY107)."""
    return frozenset(f.subject for f in mask_findings(ctx) if isinstance(f, Diagnostic) and f.code == "HPY107")


def _masks(ctx: Context) -> Iterator[Finding]:
    if tuple(ctx.options.rocm_version) < WIDE_LANE_MASKS_SINCE:
        return
    masks = ctx.index.mask_functions
    if not masks or ctx.used_rows.isdisjoint(masks):
        return
    text = ctx.text
    macros: dict[str, Directive] | None = None
    widened: set[int] = set()
    for ident, row in find_pairs(ctx):
        if row.cuda not in masks or not used(ctx, ident) or not ctx.decide(row).target:
            continue
        args = ident.call_args
        if not args:
            continue  # not a call, or called without arguments (__activemask()): no mask to check
        mask = text[args[0][0] : args[0][1]].strip() if args else ""
        if _FULL_64.match(mask) or _ACTIVEMASK.match(mask):
            continue  # already 64-bit (a second run; HIP's __activemask() is 64-bit)
        if _FULL_32.match(mask):
            start, end = args[0]
            lead = len(text[start:end]) - len(text[start:end].lstrip())
            yield Edit(start + lead, start + lead + len(mask), FULL_MASK_64, "HPY008", Origin.TEXT, subject=ident.name)
            continue
        if _IDENT.match(mask):
            if macros is None:
                macros = _object_macros(ctx)
            directive = macros.get(mask)
            if directive is not None:
                edit = _widen_define(ctx, directive, mask)
                if edit is not None:
                    if directive.start not in widened:
                        widened.add(directive.start)
                        yield edit
                    continue
                if _FULL_64.match(directive.argument.split(None, 1)[1]):
                    continue
        yield Diagnostic(
            "HPY107",
            f"{ident.name} takes a lane mask: HIP masks are 64-bit (a wavefront has 64 "
            "lanes); check masks such as 0xffffffff",
            offset=ident.start,
            severity=Severity.WARNING,
            subject=ident.name,
        )


def _object_macros(ctx: Context) -> dict[str, Directive]:
    """Object-like macros this file defines once, with a single-token value."""
    out: dict[str, Directive] = {}
    seen: set[str] = set()
    for d in ctx.facts.directives:
        if d.keyword != "define":
            continue
        parts = d.argument.split()
        if not parts:
            continue
        name = parts[0]
        if name in seen:
            out.pop(name, None)  # defined twice (#if branches): not one value
            continue
        seen.add(name)
        if len(parts) == 2 and "(" not in name:
            out[name] = d
    return out


def _widen_define(ctx: Context, directive: Directive, name: str) -> Edit | None:
    """The edit widening ``#define NAME 0xffffffff`` (None when the value is not that literal)."""
    if not ctx.allowed(directive.start, directive.region):
        return None
    value = directive.argument.split(None, 1)[1]
    if not _FULL_32.match(value):
        return None
    m = re.compile(rf"\b{re.escape(name)}\s+({re.escape(value)})(?![\w])").search(
        ctx.text, directive.start, directive.end
    )
    if m is None:
        return None
    return Edit(m.start(1), m.end(1), FULL_MASK_64, "HPY008", Origin.TEXT, subject=name)


@register("warp_sync")
def warp_sync(ctx: Context) -> Iterator[Finding]:
    yield from mask_findings(ctx)
