"""``cub::`` -> ``hipcub::``: a CUDA namespace is renamed only where it is used as one.

That is, followed by ``::`` (``cub::DeviceReduce``), after ``namespace`` / ``using
namespace``, or as the target of a namespace alias (``namespace cb = cub;``); a variable
that happens to be called ``cub`` is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model import Diagnostic, Edit, Severity
from ..context import Context
from ..registry import Finding, register


@register("namespaces")
def namespaces(ctx: Context) -> Iterator[Finding]:
    spaces = ctx.index.namespaces
    if not spaces:
        return
    for ident in ctx.facts.identifiers:
        pair = spaces.get(ident.name)
        if pair is None or ident.qualifier or ident.prev_token in (".", "->"):
            continue
        if ident.next_token != "::" and ident.prev_token != "namespace" and not _alias_target(ctx.text, ident.start):
            continue
        if not ctx.allowed(ident.start, ident.region):
            continue
        row = ctx.table.lookup(ident.name)
        target = pair[1] if ctx.options.roc else pair[0]
        if row is not None and row.kind == "namespace":
            decision = ctx.decide(row)
            if decision.code:
                yield Diagnostic(
                    decision.code, decision.message, offset=ident.start, severity=Severity.WARNING, subject=row.cuda
                )
            if not decision.target:
                continue
            target = decision.target
        if target != ident.name:
            yield Edit(ident.start, ident.end, target, "HPY001", ident.origin, subject=ident.name + "::")


_ALIAS = re.compile(r"\bnamespace\s+[A-Za-z_$][\w$]*\s*=\s*(?:::\s*)?\Z")


def _alias_target(text: str, start: int) -> bool:
    """Is the name at ``start`` what ``namespace X = `` aliases?"""
    return _ALIAS.search(text, max(0, start - 200), start) is not None
