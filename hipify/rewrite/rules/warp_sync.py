"""ROCm >= 6.2 declares the ``*_sync`` warp functions only under HIP_ENABLE_WARP_SYNC_BUILTINS.

When a file uses one (the table row says so), the define goes on its own line right
before the HIP runtime include, and each use gets HPY107 (lane masks are 64-bit on AMD).
If the runtime include is being inserted, ``runtime_include`` writes the define with it.
"""
from __future__ import annotations

from collections.abc import Iterator

from ...facts import Identifier
from ...model import Diagnostic, Edit, Origin, Severity
from ..context import Context
from ..index import WARP_SYNC_DEFINE
from ..registry import Finding, register
from .includes import include_plan

_FIRST_VERSION = (6, 2)


def warp_sync_uses(ctx: Context) -> list[Identifier]:
    found = ctx.cache.get("warp_sync")
    if found is None:
        found = ctx.cache["warp_sync"] = _uses(ctx)
    return found


def _uses(ctx: Context) -> list[Identifier]:
    if tuple(ctx.options.rocm_version) < _FIRST_VERSION or not ctx.index.warp_sync:
        return []
    uses = []
    warp = ctx.index.warp_sync
    for ident, row in ctx.resolved:
        if row.cuda not in warp or ident.user_declared or ident.prev_token in (".", "->"):
            continue
        if not ctx.allowed(ident.start, ident.region) or not ctx.decide(row).target:
            continue
        uses.append(ident)
    return uses


def needs_define(ctx: Context) -> bool:
    """Used, and not already defined by the file (which keeps a second run a no-op)."""
    if not warp_sync_uses(ctx):
        return False
    return not any(d.keyword == "define" and d.argument.split()[:1] == [WARP_SYNC_DEFINE]
                   for d in ctx.facts.directives)


def define_line() -> str:
    return f"#define {WARP_SYNC_DEFINE}"


@register("warp_sync")
def warp_sync(ctx: Context) -> Iterator[Finding]:
    for ident in warp_sync_uses(ctx):
        yield Diagnostic("HPY107", f"{ident.name} takes a lane mask: HIP masks are 64-bit (a wavefront has 64 "
                                   "lanes); check masks such as 0xffffffff", offset=ident.start,
                         severity=Severity.WARNING, subject=ident.name)
    if not needs_define(ctx):
        return
    line = include_plan(ctx).runtime_line
    if line >= 0:
        yield Edit(line, line, define_line() + ctx.newline, "HPY006", Origin.TEXT, subject=WARP_SYNC_DEFINE)
    # else: runtime_include inserts the define together with the include it adds.
