"""Macros a HIP target needs defined before the HIP headers, and warp lane masks.

A row's ``hip_requires`` names a macro (HIP_ENABLE_WARP_SYNC_BUILTINS: ROCm >= 6.2
declares the ``*_sync`` warp functions only under it). When a file uses such a row, ``#define MACRO`` goes on its own line
right before the HIP runtime include, one line per macro, in name order; if the runtime
include is being inserted, ``runtime_include`` writes the defines with it. A macro is
defined only for target ROCm versions that need it (``_FIRST_VERSION``).

Warp functions take a 64-bit lane mask on AMD (ROCm >= 6.2 static_asserts it). A literal
full 32-bit mask (``0xffffffff``, any ``u``/``l`` suffix) in argument 0 -- written there,
or as the value of an object-like macro ``#define``d in this file -- becomes
``0xffffffffffffffffULL`` (HPY008: all lanes of a warp are all lanes of a wavefront).
Any other mask is reported (HPY107).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...facts import Directive, Identifier
from ...model import Diagnostic, Edit, Origin, Severity
from ...table import Row
from ..context import Context
from ..index import WARP_SYNC_DEFINE
from ..registry import Finding, register
from .includes import include_plan

# The first target ROCm that needs each macro; a macro not listed is needed by every version.
_FIRST_VERSION: dict[str, tuple[int, int]] = {WARP_SYNC_DEFINE: (6, 2)}
FULL_MASK_64 = "0xffffffffffffffffULL"
_FULL_32 = re.compile(r"0[xX][fF]{8}(?:[uU][lL]{0,2}|[lL]{1,2}[uU]?)?\Z")
_FULL_64 = re.compile(r"0[xX][fF]{16}(?:[uU][lL]{0,2}|[lL]{1,2}[uU]?)?\Z")
_IDENT = re.compile(r"[A-Za-z_]\w*\Z")
_ACTIVEMASK = re.compile(r"__activemask\s*\(\s*\)\Z")


def _needed(macro: str, ctx: Context) -> bool:
    return tuple(ctx.options.rocm_version) >= _FIRST_VERSION.get(macro, (0, 0))


def _used(ctx: Context, ident: Identifier) -> bool:
    """An emitted use of a table name (not the user's own, not a member)."""
    return not (ident.user_declared or ident.prev_token in (".", "->")) and ctx.allowed(ident.start, ident.region)


def required_uses(ctx: Context) -> dict[str, list[Identifier]]:
    """Macro -> the uses that need it (for the target ROCm), in file order."""
    return ctx.memo(_required_uses)


def _pairs(ctx: Context) -> list[tuple[Identifier, Row]]:
    """Uses of rows that need a macro or take a lane mask (one pass over the file's names)."""
    return ctx.memo(_find_pairs)


def _find_pairs(ctx: Context) -> list[tuple[Identifier, Row]]:
    wanted = set(ctx.index.requires) | ctx.index.mask_functions
    return [] if ctx.used_rows.isdisjoint(wanted) else [p for p in ctx.resolved if p[1].cuda in wanted]


def _required_uses(ctx: Context) -> dict[str, list[Identifier]]:
    requires = ctx.index.requires
    out: dict[str, list[Identifier]] = {}
    if not requires or ctx.used_rows.isdisjoint(requires):
        return out
    for ident, row in _pairs(ctx):
        macros = requires.get(row.cuda)
        if not macros or not _used(ctx, ident) or not ctx.decide(row).target:
            continue
        for macro in macros:
            if _needed(macro, ctx):
                out.setdefault(macro, []).append(ident)
    return out


def _defined(ctx: Context) -> set[str]:
    return {d.argument.split()[0] for d in ctx.facts.directives if d.keyword == "define" and d.argument}


def missing_defines(ctx: Context) -> list[str]:
    """Macros used and not already defined by the file (which keeps a second run a no-op)."""
    uses = required_uses(ctx)
    if not uses:
        return []
    defined = _defined(ctx)
    return sorted(m for m in uses if m not in defined)


@register("warp_sync")
def warp_sync(ctx: Context) -> Iterator[Finding]:
    yield from _masks(ctx)
    missing = missing_defines(ctx)
    if not missing:
        return
    line = include_plan(ctx).runtime_line
    if line >= 0:
        for macro in missing:
            yield Edit(line, line, f"#define {macro}{ctx.newline}", "HPY006", Origin.TEXT, subject=macro)
    # else: runtime_include inserts the defines together with the include it adds.


# --- lane masks -------------------------------------------------------------------------


def _masks(ctx: Context) -> Iterator[Finding]:
    if tuple(ctx.options.rocm_version) < _FIRST_VERSION[WARP_SYNC_DEFINE]:
        return
    masks = ctx.index.mask_functions
    if not masks or ctx.used_rows.isdisjoint(masks):
        return
    text = ctx.text
    macros: dict[str, Directive] | None = None
    widened: set[int] = set()
    for ident, row in _pairs(ctx):
        if row.cuda not in masks or not _used(ctx, ident) or not ctx.decide(row).target:
            continue
        args = ident.call_args
        if args == ():
            continue  # called without arguments (__activemask()): no mask to check
        mask = text[args[0][0] : args[0][1]].strip() if args else ""
        if _FULL_64.match(mask) or _ACTIVEMASK.match(mask):
            continue  # already 64-bit (a second run; HIP's __activemask() is 64-bit)
        if _FULL_32.match(mask):
            start, end = args[0]  # type: ignore[index]
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
