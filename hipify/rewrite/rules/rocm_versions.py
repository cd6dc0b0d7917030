"""Uses of CUDA names that another ROCm release the table was generated for translates otherwise (HPY022, a note).

The table holds each release's targets (``Row.by_rocm``), so a translation for ROCm 7.2 writes ``hipMemAdvise_v2``
where one for 6.4 writes ``hipMemAdvise``, defines no ``HIP_ENABLE_WARP_SYNC_BUILTINS`` where 6.4 needs it, and
writes ``hipblasSetWorkspace``, which 6.4 lacks. A port that must build with more than one release needs to know
which lines depend on the release: the report lists them per file.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model import Diagnostic, Severity
from ..context import Context
from ..registry import Finding, register
from ..versions import others_writing_otherwise


@register("rocm_versions")
def rocm_versions(ctx: Context) -> Iterator[Finding]:
    names = ctx.index.version_dependent
    if not names or ctx.used_rows.isdisjoint(names):
        return
    releases = ctx.table.target_releases
    for ident, row in ctx.uses_of(names):
        if not ctx.emits(ident, row):
            continue
        others = others_writing_otherwise(row, ctx.options, releases, ctx.index.releases, ctx.uses_roc(row))
        if not others:
            continue
        here = ctx.decide(row)
        mine = here.target or "left as written"
        elsewhere = "; ".join(f"ROCm {release}: {written.describe()}" for release, written in others.items())
        yield Diagnostic(
            "HPY022",
            f"{row.cuda} -> {mine} for the target ROCm; {elsewhere}",
            ident.start,
            severity=Severity.INFO,
            subject=row.cuda,
        )
