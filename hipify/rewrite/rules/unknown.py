"""Warn about identifiers that look like CUDA APIs but are not in the table (HPY104)."""

from __future__ import annotations

from collections.abc import Iterator

from ...model import Diagnostic, Severity
from ..context import Context
from ..index import CUDA_LIKE
from ..registry import Finding, register

_LIBCURL = "CURL"  # the HTTP library's prefix, which CUDA_LIKE's "CU[A-Z]" takes in


@register("unknown")
def unknown(ctx: Context) -> Iterator[Finding]:
    if not ctx.options.warn_unknown:
        return
    table = ctx.table
    # The project's own (cudaCheck): found by the project scan, or listed in the configuration.
    project_names = frozenset(ctx.source.project.project_names) | frozenset(ctx.options.project_names)
    for ident in ctx.unresolved:
        name = ident.name
        if ident.user_declared or ident.qualifier or ident.prev_token in (".", "->"):
            continue
        if name in table or name in project_names or name in ctx.compat_names or CUDA_LIKE.match(name) is None:
            continue
        if name.startswith(_LIBCURL):
            continue  # CURLE_OK, CURLOPT_URL, CURL: libcurl's (no NVIDIA library's name starts so)
        if not ctx.allowed(ident.start, ident.region):
            continue
        yield Diagnostic(
            "HPY104",
            f"{name} looks like a CUDA API but is not in the mapping table",
            offset=ident.start,
            severity=Severity.WARNING,
            subject=name,
        )
