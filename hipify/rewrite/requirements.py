"""Macros a HIP target needs defined before the HIP headers (a row's ``hip_requires``, or its ``roc_requires``
where the file writes the row's ROC-side target).

HIP_ENABLE_WARP_SYNC_BUILTINS: ROCm >= 6.2 declares the ``*_sync`` warp functions only
under it. A file that uses such a row defines the macro; so does the main file of every
translation unit that includes such a file (``ProjectFacts.tu_defines``), since a header's
own definition comes too late when the main file included a HIP header first. Where the
definitions go is decided by ``rules/runtime_include``. A macro is defined only for target
ROCm versions that need it (``index.macro_needed``).
"""

from __future__ import annotations

from ..knowledge.table import Row
from ..lexing.facts import Identifier
from .context import Context
from .index import macro_needed, required_macros


def used(ctx: Context, ident: Identifier) -> bool:
    """An emitted use of a table name (not the user's own, not a member)."""
    return not (ident.user_declared or ident.prev_token in (".", "->")) and ctx.allowed(ident.start, ident.region)


def required_uses(ctx: Context) -> dict[str, list[Identifier]]:
    """Macro -> the uses that need it (for the target ROCm), in file order."""
    return ctx.memo(_required_uses)


def find_pairs(ctx: Context) -> list[tuple[Identifier, Row]]:
    """Uses of rows that need a macro or take a lane mask (one pass over the file's names)."""
    return ctx.memo(_find_pairs)


def _find_pairs(ctx: Context) -> list[tuple[Identifier, Row]]:
    index = ctx.index
    wanted = set(index.requires) | set(index.roc_requires) | index.mask_functions
    return ctx.uses_of(wanted)


def _required_uses(ctx: Context) -> dict[str, list[Identifier]]:
    index = ctx.index
    out: dict[str, list[Identifier]] = {}
    if ctx.used_rows.isdisjoint(index.requires) and ctx.used_rows.isdisjoint(index.roc_requires):
        return out
    for ident, row in find_pairs(ctx):
        if (row.cuda not in index.requires and row.cuda not in index.roc_requires) or not used(ctx, ident):
            continue
        decision = ctx.decide(row)
        if not decision.target:
            continue
        for macro in required_macros(row, decision.roc):
            if macro_needed(macro, ctx.options.rocm_version):
                out.setdefault(macro, []).append(ident)
    return out


def _defined(ctx: Context) -> set[str]:
    return {d.argument.split()[0] for d in ctx.facts.directives if d.keyword == "define" and d.argument}


def missing_defines(ctx: Context, compat: tuple[str, ...] = ()) -> list[str]:
    """Macros this file must define: those its own uses need (``compat``: those the compatibility header's
    entries it uses need) and, in a translation unit's main file, those its headers need; minus those it
    defines already (a second run is a no-op)."""
    wanted = set(required_uses(ctx)) | set(compat)
    project = ctx.source.project
    if project.tu_root:
        wanted.update(project.tu_defines)
    if not wanted:
        return []
    defined = _defined(ctx)
    return sorted(m for m in wanted if m not in defined)
