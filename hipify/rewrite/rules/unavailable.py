"""Declarations that need CUDA APIs HIP lacks must not break the files that never use them.

A shared helper header (``cublas_utils.h``) may define one function for the few programs
that use an API HIP lacks; translated as it is, that function breaks every program that
includes the header. The project model knows who uses what (``ProjectFacts``):

- a declaration of a header that needs a missing API is disabled visibly, behind
  ``#if defined(HIPIFY_ENABLE_<name>)`` with a comment naming the missing APIs (HPY010); its
  own findings are summed up in that one. The files that include the header and do not use
  it then compile; those that use it could not compile either way;
- each use of such a declaration is a blocker, reported at the use (HPY111): that code needs
  porting by hand;
- a disabled function definition keeps its signature in an ``#else`` branch, with a body that stops
  the program (``__builtin_trap()``): the files that call it compile too (a program that offers the
  missing API as one of several paths then builds and runs its others), and a call that is taken
  stops there instead of computing something else.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator

from ...knowledge.codes import UNCONVERTED_CODES
from ...lexing.declarations import Declaration
from ...model import Diagnostic, Severity, Span
from ..availability import is_missing
from ..context import Context
from ..registry import Finding, register
from ..wrap import already_wrapped, wrap

ENABLE_PREFIX = "HIPIFY_ENABLE_"


def _declarations(ctx: Context) -> list[Declaration]:
    return ctx.declarations


def _missing_in(ctx: Context, span: Span) -> list[str]:
    starts = ctx.memo(_resolved_starts)
    resolved = ctx.resolved
    if starts is None:  # not in file order (never seen): every identifier is looked at
        inside = (row for ident, row in resolved if span[0] <= ident.start < span[1] and not ident.user_declared)
    else:  # a file may disable a declaration per blocked name: each reads its own identifiers, not all of them
        lo, hi = bisect.bisect_left(starts, span[0]), bisect.bisect_left(starts, span[1])
        inside = (row for ident, row in resolved[lo:hi] if not ident.user_declared)
    missing = {row.cuda for row in inside if is_missing(row, ctx.options, ctx.index.releases)}
    return sorted(missing - ctx.compat_names)


def _resolved_starts(ctx: Context) -> list[int] | None:
    """Where each of ``ctx.resolved`` starts, when they come in file order (None otherwise)."""
    starts = [ident.start for ident, _ in ctx.resolved]
    return starts if starts == sorted(starts) else None


def disabled_declarations(ctx: Context) -> list[tuple[Declaration, list[str]]]:
    """This file's declarations to disable, with the missing APIs of each (computed once per file)."""
    return ctx.memo(_find_disabled)


def _find_disabled(ctx: Context) -> list[tuple[Declaration, list[str]]]:
    wanted = frozenset(ctx.source.project.disabled)
    if not wanted:
        return []
    out = []
    for decl in _declarations(ctx):
        if decl.name in wanted:
            missing = _missing_in(ctx, decl.span)
            if missing:
                out.append((decl, missing))
    return out


def quiet_spans(ctx: Context) -> list[Span]:
    """Spans whose unconverted-API findings are summed up in one HPY010 finding."""
    return [decl.span for decl, _ in disabled_declarations(ctx)]


def is_quiet(ctx: Context, finding: Diagnostic) -> bool:
    return finding.code in UNCONVERTED_CODES and any(s <= finding.offset < e for s, e in quiet_spans(ctx))


@register("unavailable")
def unavailable(ctx: Context) -> Iterator[Finding]:
    project = ctx.source.project
    if not project.disabled and not project.blocked_uses:
        return
    for decl, missing in disabled_declarations(ctx):
        yield from _disable(ctx, decl, missing)
    yield from _blocked_uses(ctx)


def _disable(ctx: Context, decl: Declaration, missing: list[str]) -> Iterator[Finding]:
    condition = f"defined({ENABLE_PREFIX}{decl.name})"
    if already_wrapped(ctx.text, decl, condition):
        return  # disabled by an earlier run
    needs = ", ".join(missing)
    yield Diagnostic(
        "HPY010",
        f"{decl.name} needs {needs}, which HIP lacks: disabled so that the files including this one compile; "
        f"each use is reported (HPY111) (define {ENABLE_PREFIX}{decl.name} to compile it)",
        decl.name_at if decl.name_at >= 0 else decl.start,
        severity=Severity.WARNING,
        subject=decl.name,
    )
    comment = f"{decl.name} needs {needs} (HIP lacks it): disabled so that the files including this one compile"
    yield from wrap(ctx.text, ctx.newline, decl, comment, condition, "HPY010", _stopping_definition(ctx, decl))


def _stopping_definition(ctx: Context, decl: Declaration) -> str:
    """The function's head, translated, with a body that stops the program; "" for other declarations and for
    a head that itself names an API HIP lacks."""
    if decl.kind != "function" or decl.head_end >= decl.end or not decl.name:
        return ""
    text, pieces, cursor = ctx.text, [], decl.start
    # Only the head's identifiers, sorted (the file's all were, once per disabled declaration).
    in_head = [pair for pair in ctx.resolved if decl.start <= pair[0].start < decl.head_end]
    for ident, row in sorted(in_head, key=lambda pair: pair[0].start):
        if ident.user_declared:
            continue
        if is_missing(row, ctx.options, ctx.index.releases):
            return ""
        target = ctx.decide(row).target
        if target and target != ident.name:
            pieces += [text[cursor : ident.start], target]
            cursor = ident.end
    head = "".join(pieces) + text[cursor : decl.head_end].rstrip()
    return f"{head} {{ __builtin_trap(); }}  // hipify-py: stops the program where it is called (HPY111)"


def _blocked_uses(ctx: Context) -> Iterator[Diagnostic]:
    blocked = dict(ctx.source.project.blocked_uses)
    if not blocked:
        return
    masked = ctx.masked
    hits = _whole_words(masked, [name for name in blocked if name in masked])
    if not hits:
        return
    declarations = ctx.declarations
    own = [(d.start, d.end) for d in declarations if d.name in blocked]  # the blocked declarations themselves
    names_at = {d.name_at for d in declarations}
    for at, name in hits:
        if at in names_at or any(s <= at < e for s, e in own) or not ctx.allowed(at):
            continue
        yield Diagnostic(
            "HPY111",
            f"{name} needs {blocked[name]}, which HIP lacks: this use keeps it (port it by hand)",
            at,
            severity=Severity.WARNING,
            subject=name,
        )


def _whole_words(masked: str, names: list[str]) -> list[tuple[int, str]]:
    """(offset, name) of each occurrence of ``names`` with no name character (``[\\w$]``) on either side, in
    order. Such occurrences never overlap, so these are the matches of ``(?<![\\w$])(?:names)(?![\\w$])``; found with
    str.find, where that regex (no literal to start from) was tried at every offset of every file."""
    hits = []
    size = len(masked)
    for name in names:
        at = masked.find(name)
        while at >= 0:
            end = at + len(name)
            before = masked[at - 1] if at else " "
            after = masked[end] if end < size else " "
            if not (before.isalnum() or before in "_$") and not (after.isalnum() or after in "_$"):
                hits.append((at, name))
            at = masked.find(name, at + 1)
    hits.sort()
    return hits
