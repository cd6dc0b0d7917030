"""Rename identifiers that name table rows; report rows that must not be emitted.

Also applies a row's transform: ``by_arity`` picks the target by the call's argument
count, ``wrap_arg`` wraps one argument (``HIP_SYMBOL(sym)``,
``reinterpret_cast<const void*>(kernel)``) with two insertions, so renames inside that
argument never overlap the wrap, and ``remove`` deletes the name (``CUDART_CB``: a
calling-convention macro HIP lacks, empty on Linux). A row HIP marks deprecated is
translated and reported (HPY102).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...facts import Identifier, rejoin_template_commas
from ...model import Edit, Origin, Severity
from ...table import Row
from ..context import Context
from ..registry import Finding, make_diagnostic, make_edit, register
from ..status import Decision

_MEMBER = (".", "->")
_SKIP_KINDS = ("namespace", "header")


_SKIP, _RENAME, _REMOVE, _TRANSFORM = range(4)
_new = object.__new__
_set = object.__setattr__


def _row_plan(ctx: Context, row: Row) -> tuple[int, bool, str, Decision | None]:
    """What every use of ``row`` gets: (mode, is_field, target, decision); once per row and file."""
    if row.kind in _SKIP_KINDS:
        return _SKIP, False, "", None
    is_field = row.kind == "field"
    transform = row.transform
    if transform is not None and transform.kind == "remove":
        # A calling-convention macro HIP lacks (CUDART_CB): empty on Linux, so deleted.
        return _REMOVE, is_field, "", None
    decision = ctx.decide(row)
    target = decision.target
    if transform is not None and target:
        return _TRANSFORM, is_field, target, decision
    if "::" in target:
        target = target.rsplit("::", 1)[-1]  # cub::X -> hipcub::X: the namespace rule renames the qualifier
    return _RENAME, is_field, target, decision


@register("renames")
def renames(ctx: Context) -> list[Finding]:
    out: list[Finding] = []
    append = out.append
    everything = ctx.allows_everything
    allowed = ctx.allowed
    plans: dict[str, tuple[int, bool, str, Decision | None]] = {}
    plain: dict[str, str] = {}  # cuda name -> target, for rows that are just renamed (most uses)
    member = _MEMBER
    for ident, row in ctx.resolved:
        if ident.user_declared:
            continue
        cuda = row.cuda
        target = plain.get(cuda)
        if target is not None:  # the fast path: a plain rename
            if ident.prev_token in member or (not everything and not allowed(ident.start, ident.region)):
                continue
            if target != ident.name:
                edit = _new(Edit)
                _set(
                    edit,
                    "__dict__",
                    {
                        "start": ident.start,
                        "end": ident.end,
                        "replacement": target,
                        "code": "HPY001",
                        "origin": ident.origin,
                        "subject": cuda,
                    },
                )
                append(edit)
            continue
        plan = plans.get(cuda)
        if plan is None:
            plan = plans[cuda] = _row_plan(ctx, row)
            mode, is_field, target, decision = plan
            if mode == _RENAME and not is_field and decision is not None and not decision.code:
                plain[cuda] = target
                if ident.prev_token in member or (not everything and not allowed(ident.start, ident.region)):
                    continue
                if target != ident.name:
                    append(make_edit(ident.start, ident.end, target, "HPY001", ident.origin, cuda))
                continue
        mode, is_field, target, decision = plan
        if mode == _SKIP or (ident.prev_token in member) != is_field:
            continue  # obj.cudaX is the user's member; a field row only renames members
        if not everything and not allowed(ident.start, ident.region):
            continue
        if mode == _REMOVE:
            append(make_edit(ident.start, ident.end, "", "HPY009", ident.origin, row.cuda))
            continue
        assert decision is not None
        if decision.code:  # not emitted, or emitted with a warning (HPY102 deprecated)
            append(make_diagnostic(decision.code, decision.message, ident.start, Severity.WARNING, row.cuda))
            if not target:
                continue
        if mode == _TRANSFORM:
            target = _target_for(ident, row, target)
        if target != ident.name:
            append(make_edit(ident.start, ident.end, target, "HPY001", ident.origin, row.cuda))
        if mode == _TRANSFORM:
            out.extend(_wrap_argument(ctx, ident, row))
    return out


def _target_for(ident: Identifier, row: Row, target: str) -> str:
    transform = row.transform
    if transform is not None and transform.kind == "by_arity" and ident.call_args is not None:
        target = dict(transform.arity).get(len(ident.call_args), target)
    # Qualified rows (cub::X -> hipcub::X): the namespace rule renames the qualifier.
    return target.rsplit("::", 1)[-1] if "::" in target else target


def _wrap_argument(ctx: Context, ident: Identifier, row: Row) -> Iterator[Edit]:
    transform = row.transform
    if transform is None or transform.kind != "wrap_arg" or not transform.wrapper:
        return
    args = ident.call_args
    if args is None or not 0 <= transform.arg < len(args):
        return
    if not any(s == e for s, e in args):
        # ``k<float, 4>``: text splits a template's arguments at the comma; rejoin them.
        args = rejoin_template_commas(ctx.text, args)
        if transform.arg >= len(args):
            return
    start, end = args[transform.arg]
    if start == end or _squeeze(ctx.text[start:end]).startswith(_squeeze(transform.wrapper) + "("):
        return  # already wrapped (idempotence)
    subject = f"{row.cuda}:{start}"
    yield Edit(start, start, transform.wrapper + "(", "HPY005", Origin.TEXT, subject=subject)
    yield Edit(end, end, ")", "HPY005", Origin.TEXT, subject=subject)


def _squeeze(text: str) -> str:
    """Text without blanks, to compare ``reinterpret_cast<const void*>`` however spaced."""
    return "".join(text.split())
