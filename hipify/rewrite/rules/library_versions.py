"""A CUDA library's version macro compared in a condition (HPY126): the number is the ROCm library's.

``#if CUBLAS_VER_MAJOR >= 11`` becomes ``#if hipblasVersionMajor >= 11`` (the table's row, renamed like any other):
the condition now compares hipBLAS's major version (2 on ROCm 6.4) with a number written for cuBLAS, so it takes
the branch written for an old cuBLAS, the one needing the fewest APIs. That is compiled, not meant: each such
condition is reported with the two libraries named, so that the port can pick the branch HIP has the APIs for. A
value used elsewhere (a version printed in a log) says which library the program runs on, as it should.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...knowledge.families import ALIASES
from ...knowledge.versions import is_library_version
from ...model import Diagnostic, Severity
from ..context import Context
from ..registry import Finding, register

_CONDITIONS = frozenset(("if", "elif"))


@register("library_versions")
def library_versions(ctx: Context) -> Iterator[Finding]:
    for ident, row in ctx.resolved:
        if ident.directive not in _CONDITIONS or not is_library_version(row) or not ctx.allowed(ident.start):
            continue
        decision = ctx.decide(row)
        if not decision.target:
            continue  # not renamed: reported as the table says
        library = (row.roc_header if decision.roc else row.hip_header).split("/", 1)[0] or "the ROCm library"
        cuda_library = next(iter(ALIASES.get(row.api, ())), row.api)
        yield Diagnostic(
            "HPY126",
            f"{row.cuda} is {decision.target} under HIP, {library}'s version, numbered otherwise than {cuda_library}'s:"
            f" this comparison, written for {cuda_library}'s numbers, may take another branch than it meant",
            ident.start,
            severity=Severity.WARNING,
            subject=row.cuda,
        )
