"""Report uses of functions whose target does not take what the translated call passes.

The generator compares each CUDA declaration, its types mapped through the table, with the target's declaration
(``hip_signature`` / ``roc_signature``). Where they differ, the renamed call does not compile as written (HPY112,
with the difference); where the target takes an older CUDA's declaration that CUDA 13 changed, the call compiles
if it is written in the older form (HPY113); where the target takes CUDA 13's and the same-named function an older
CUDA's of as many parameters (hipMemAdvise_v2 and hipMemAdvise on ROCm 7), the call is marked the same way.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model import Diagnostic, Severity
from ..context import Context
from ..registry import Finding, register


@register("signatures")
def signatures(ctx: Context) -> Iterator[Finding]:
    wanted = ctx.index.signature_findings
    for ident, row in ctx.uses_of(wanted):
        if not ctx.emits(ident, row):
            continue
        decision = ctx.decide(row)
        target = decision.target
        if not target or (row.transform is not None and row.transform.kind == "by_arity"):
            continue
        status, diff = (
            (row.roc_signature, row.roc_signature_diff) if decision.roc else (row.hip_signature, row.hip_signature_diff)
        )
        if status == "differs":
            yield Diagnostic(
                "HPY112",
                f"{row.cuda} -> {target}: {target} does not take what this call passes ({diff}); adapt the call",
                ident.start,
                severity=Severity.WARNING,
                subject=row.cuda,
            )
        elif status == "newer":
            yield Diagnostic(
                "HPY113",
                f"{row.cuda} -> {target}: {target} {diff}; if this call passes the older CUDA's arguments, "
                "call that one",
                ident.start,
                severity=Severity.WARNING,
                subject=row.cuda,
            )
        elif status == "older":
            yield Diagnostic(
                "HPY113",
                f"{row.cuda} -> {target}: {target} {diff}; "
                "if this call passes CUDA 13's arguments, rewrite it in the older form",
                ident.start,
                severity=Severity.WARNING,
                subject=row.cuda,
            )
