"""Uses of CUDA names that another ROCm release the table was generated for translates otherwise (HPY022, a note).

The table holds each release's targets (``Row.by_rocm``), so a translation for ROCm 7.2 writes ``hipMemAdvise_v2``
where one for 6.4 writes ``hipMemAdvise``, defines no ``HIP_ENABLE_WARP_SYNC_BUILTINS`` where 6.4 needs it, and
writes ``hipblasSetWorkspace``, which 6.4 lacks. The names the compatibility header provides are noted where their
entry needs another macro in another release (the warp ``*_sync`` functions). A port that must build with more than
one release needs to know which lines depend on the release: the report lists them per file.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...compat import CompatCatalog, load_catalog
from ...knowledge.table import release_for
from ...model import Diagnostic, Severity
from ..context import Context
from ..index import macro_needed
from ..registry import Finding, register
from ..versions import Written, others_writing_otherwise, version_of


@register("rocm_versions")
def rocm_versions(ctx: Context) -> Iterator[Finding]:
    releases = ctx.table.target_releases
    names = ctx.index.version_dependent
    if names and not ctx.used_rows.isdisjoint(names):
        per_row: dict[tuple[str, bool], dict[str, Written]] = {}  # a row's uses share its answer
        for ident, row in ctx.uses_of(names):
            if not ctx.emits(ident, row):
                continue
            roc = ctx.uses_roc(row)
            others = per_row.get((row.cuda, roc))
            if others is None:
                others = per_row[(row.cuda, roc)] = others_writing_otherwise(
                    row, ctx.options, releases, ctx.index.releases, roc
                )
            if not others:
                continue
            mine = ctx.decide(row).target or "left as written"
            elsewhere = "; ".join(f"ROCm {release}: {written.describe()}" for release, written in others.items())
            yield _note(row.cuda, f"{row.cuda} -> {mine} for the target ROCm; {elsewhere}", ident.start)
    yield from _compat_defines(ctx, releases)


def _compat_defines(ctx: Context, releases: tuple[str, ...]) -> Iterator[Finding]:
    """Uses of a name the compatibility header provides whose entry needs another macro defined in another release
    (the warp *_sync functions: HIP_ENABLE_WARP_SYNC_BUILTINS on 6.x)."""
    names = ctx.compat_names & ctx.identifiers_by_name.keys()
    if not names:
        return
    catalog = load_catalog()
    here = release_for(ctx.options.rocm_version, releases)
    for name in sorted(names):
        mine = _entry_defines(catalog, name, ctx.options.rocm_version)
        others = {r: d for r in releases if r != here and (d := _entry_defines(catalog, name, version_of(r))) != mine}
        if not others:
            continue
        elsewhere = "; ".join(
            f"ROCm {release}: {', '.join(defines) + ' defined' if defines else 'no macro defined'}"
            for release, defines in others.items()
        )
        message = f"{name} for the target ROCm: " + (f"{', '.join(mine)} defined" if mine else "no macro defined")
        for ident in ctx.identifiers_by_name[name]:
            if not ident.qualifier and ident.prev_token not in (".", "->") and ctx.allowed(ident.start, ident.region):
                yield _note(name, f"{message}; {elsewhere}", ident.start)


def _entry_defines(catalog: CompatCatalog, name: str, rocm: tuple[int, int]) -> tuple[str, ...]:
    entry = catalog.for_name(name, rocm)
    if entry is None:
        return ()
    return tuple(sorted({d for e in catalog.closure([entry]) for d in e.defines if macro_needed(d, rocm)}))


def _note(subject: str, message: str, offset: int) -> Diagnostic:
    return Diagnostic("HPY022", message, offset, severity=Severity.INFO, subject=subject)
