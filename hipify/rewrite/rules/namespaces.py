"""``cub::`` -> ``hipcub::``, ``thrust::cuda::`` -> ``thrust::hip::``: a CUDA namespace is renamed only where it is
used as one.

That is, followed by ``::`` (``cub::DeviceReduce``), after ``namespace`` / ``using
namespace``, or as the target of a namespace alias (``namespace cb = cub;``); a nested one
by its whole path (``thrust::system::cuda``, whose last part is renamed); a variable that happens to be called ``cub`` is left alone. A qualifier whose member the translation
does not rename (``cub::X`` where hipCUB lacks ``X``: reported by the renames rule) keeps
its CUDA namespace, so that the line stays all CUDA.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...lexing.facts import Identifier
from ...model import Diagnostic, Edit, Severity
from ..context import Context
from ..registry import Finding, register


@register("namespaces")
def namespaces(ctx: Context) -> Iterator[Finding]:
    spaces = ctx.index.namespaces
    if not spaces:
        return
    identifiers = ctx.facts.identifiers
    for k, ident in enumerate(identifiers):
        if ident.prev_token in (".", "->"):
            continue
        path, start = (
            _path(ctx.text, identifiers, k, ctx.index.removed) if ident.qualifier else (ident.name, ident.start)
        )
        pair = spaces.get(path)
        if pair is None:
            continue
        if ident.next_token != "::" and ident.prev_token != "namespace" and not _alias_target(ctx.text, start):
            continue
        if not ctx.allowed(ident.start, ident.region):
            continue
        if ident.next_token == "::" and _member_kept(ctx, path, ident, identifiers[k + 1 : k + 2]):
            continue
        row = ctx.table.lookup(path)
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
        if target != path:  # the whole path: cuda::std -> std drops a part
            yield Edit(start, ident.end, target, "HPY001", ident.origin, subject=path + "::")


def _member_kept(ctx: Context, path: str, qualifier: Identifier, following: tuple[Identifier, ...]) -> bool:
    """Is the name after ``path::`` (``qualifier`` its last part) a table row the translation leaves as written?"""
    if not following or following[0].qualifier != qualifier.name:
        return False
    member = following[0]
    row = ctx.table.lookup(f"{path}::{member.name}")
    return row is not None and not ctx.decide(row).target


_SCOPE = re.compile(r"\s*::\s*")


def _path(text: str, identifiers: tuple[Identifier, ...], k: int, removed: frozenset[str]) -> tuple[str, int]:
    """``thrust::system::cuda`` for the ``cuda`` at ``identifiers[k]``: its qualifiers, each the identifier written
    just before it across ``::`` (a qualifier that is not an identifier the engine kept ends the path), and where
    the path starts. A qualifier the translation deletes (``CUBLASAPI ::cuda::std::x``: a calling-convention macro,
    empty to the compiler) qualifies nothing: the path is global, as the compiler and the next translation read it."""
    parts = [identifiers[k].name]
    while k > 0 and identifiers[k].qualifier and identifiers[k].qualifier not in removed:
        before = identifiers[k - 1]
        if before.name != identifiers[k].qualifier or not _SCOPE.fullmatch(text, before.end, identifiers[k].start):
            break
        parts.append(before.name)
        k -= 1
    qualifier = identifiers[k].qualifier
    if qualifier and qualifier in removed and k > 0 and identifiers[k - 1].name == qualifier:
        return "::".join(reversed(parts)), identifiers[k].start
    if qualifier:  # qualified by what the engine did not keep (a user namespace): no CUDA path
        return "", identifiers[k].start
    return "::".join(reversed(parts)), identifiers[k].start


_ALIAS = re.compile(r"\bnamespace\s+[A-Za-z_$][\w$]*\s*=\s*(?:::\s*)?\Z")


def _alias_target(text: str, start: int) -> bool:
    """Is the name at ``start`` what ``namespace X = `` aliases?"""
    return _ALIAS.search(text, max(0, start - 200), start) is not None
