"""Rename identifiers that name table rows; report rows that must not be emitted.

Also applies a row's transform: ``by_arity`` picks the target by the call's argument
count, ``wrap_arg`` wraps one argument (``HIP_SYMBOL(sym)``,
``reinterpret_cast<const void*>(kernel)``, ``reinterpret_cast<void**>(&typed)``) with two
insertions, so renames inside that argument never overlap the wrap, ``default_args`` writes
CUDA's default arguments HIP's declaration lacks, and ``remove`` deletes the name (``CUDART_CB``: a
calling-convention macro HIP lacks, empty on Linux); ``migrate_arg`` translates the older
enum's values in one argument as the values CUDA's C++ overload converts them to
(``cublasGemmEx(..., CUDA_R_32F, algo)`` -> ``HIPBLAS_COMPUTE_32F``). A row HIP marks deprecated is
translated and reported (HPY102).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from ...knowledge.table import MappingTable, Row
from ...lexing.facts import CONDITION_DIRECTIVES, Identifier, rejoin_template_commas
from ...lexing.lexer import lex
from ...lexing.lines import line_end, line_start
from ...lexing.platform_branches import NVCC_OWN_MACROS, telling_hip_apart
from ...model import Diagnostic, Edit, Origin, Severity, Span
from ...options import Options
from ..context import Context
from ..neighbours import joins_neighbours
from ..registry import Finding, register
from ..status import Decision
from .build_conditions import condition_plan

_MEMBER = (".", "->")
_SKIP_KINDS = ("namespace", "header")


_SKIP, _RENAME, _REMOVE, _TRANSFORM = range(4)


class _RowPlan(NamedTuple):
    """What every use of one row gets in this file (decided once per row)."""

    mode: int
    is_field: bool
    target: str
    decision: Decision


_NO_DECISION = Decision("")


@lru_cache(maxsize=16)
def _plans_for(table: MappingTable, options: Options, kept_hip: frozenset[str]) -> dict[str, _RowPlan]:
    """The memo of row plans shared by the files of a run that make the same choice of names (``--roc``: the
    families that keep their HIP names, ``Context.flavour``)."""
    return {}


def _row_plan(ctx: Context, row: Row) -> _RowPlan:
    if row.kind in _SKIP_KINDS:
        return _RowPlan(_SKIP, False, "", _NO_DECISION)
    is_field = row.kind == "field"
    transform = row.transform
    if transform is not None and transform.kind == "remove":
        # A calling-convention macro HIP lacks (CUDART_CB): empty on Linux, so deleted.
        return _RowPlan(_REMOVE, is_field, "", _NO_DECISION)
    decision = ctx.decide(row)
    target = decision.target
    if transform is not None and target:
        return _RowPlan(_TRANSFORM, is_field, target, decision)
    if "::" in target:
        target = target.rsplit("::", 1)[-1]  # cub::X -> hipcub::X: the namespace rule renames the qualifier
    return _RowPlan(_RENAME, is_field, target, decision)


_WORD = re.compile(r"[A-Za-z_$][\w$]*")
# Tokens that, right after a word, make it something else: a qualifier, a call, a template, a launch.


@register("renames")
def renames(ctx: Context) -> list[Finding]:
    out: list[Finding] = []
    append = out.append
    everything = ctx.allows_everything
    allowed = ctx.allowed
    plans = _plans_for(ctx.table, ctx.options, ctx.flavour.kept_hip)  # what a row's plan depends on
    compat_names = ctx.compat_names  # kept as written: the compatibility header provides them
    decided = condition_plan(ctx).handled  # version and architecture macros the build decided (HPY019)
    migrated = ctx.memo(_migrated_values)
    telling = ctx.memo(_telling_hip_apart)
    for ident, row in ctx.resolved:
        if migrated and ident.start in migrated:
            row = migrated[ident.start]
        if ident.user_declared or _names_a_macro(ident) or row.cuda in compat_names:
            continue
        if decided and ident.start in decided:
            continue
        if telling and row.cuda in NVCC_OWN_MACROS and any(s <= ident.start < e for s, e in telling):
            continue  # a condition telling HIP's compiler apart means CUDA's there: hipcc reads it as written
        plan = plans.get(row.cuda)
        if plan is None:
            plan = plans[row.cuda] = _row_plan(ctx, row)
        mode = plan.mode
        if mode == _SKIP or (ident.prev_token in _MEMBER) != plan.is_field:
            continue  # obj.cudaX is the user's member; a field row only renames members
        if not everything and not allowed(ident.start, ident.region):
            continue
        if mode == _REMOVE:
            removal = _removal(ctx, ident, row)
            if removal is not None:
                append(removal)
            continue
        decision = plan.decision
        if not plan.target and row.kind == "enum_constant" and (label := _case_label(ctx.text, ident)):
            # case X: on an enumerator HIP lacks can never be taken: disabled, the body stays.
            append(Edit(*label, f"/* hipify-py: HIP has no {row.cuda}: {ctx.text[slice(*label)]} */", "HPY010",
                        Origin.TEXT, subject=row.cuda))  # fmt: skip
            continue
        if decision.code:  # not emitted, or emitted with a warning (HPY102 deprecated)
            message = decision.message
            if decision.code == "HPY101" and row.kind == "enum_constant" and row.parent:
                message += _what_hip_offers(ctx, row.parent)
            append(Diagnostic(decision.code, message, ident.start, severity=Severity.WARNING, subject=row.cuda))
            if not plan.target:
                continue
        if mode == _TRANSFORM and not _tests_definition(ident, row):
            append(_value_use(ident, row))
            continue
        target = _target_for(ident, row, plan.target) if mode == _TRANSFORM else plan.target
        if target != ident.name:
            append(Edit(ident.start, ident.end, target, "HPY001", ident.origin, row.cuda))
        if mode == _TRANSFORM:
            out.extend(_wrap_argument(ctx, ident, row))
            out.extend(_default_arguments(ctx, ident, row))
            out.extend(_unmigrated_argument(ctx, ident, row, target))
    return out


def _telling_hip_apart(ctx: Context) -> list[Span]:
    return telling_hip_apart(ctx.facts.directives)


_OFFERS_SHOWN = 8  # a long enum's values are for the tables command (`hipify-py tables`), not one message


@lru_cache(maxsize=4)
def _enumerators(table: MappingTable) -> dict[str, tuple[Row, ...]]:
    """The table's enum constants by their CUDA enum."""
    out: dict[str, list[Row]] = {}
    for row in table:
        if row.kind == "enum_constant" and row.parent:
            out.setdefault(row.parent, []).append(row)
    return {parent: tuple(rows) for parent, rows in out.items()}


def _what_hip_offers(ctx: Context, parent: str) -> str:
    """For a CUDA enumerator HIP lacks: the values HIP's counterpart of its enum has (what a port can choose from:
    CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO -> HIPBLASLT_POINTER_MODE_HOST, ...)."""
    enum = ctx.table.lookup(parent)
    hip_enum = ctx.decide(enum).target if enum is not None else ""
    offered = sorted({t for r in _enumerators(ctx.table).get(parent, ()) if (t := ctx.decide(r).target)})
    if not hip_enum or not offered:
        return ""
    shown = ", ".join(offered[:_OFFERS_SHOWN])
    more = f" and {len(offered) - _OFFERS_SHOWN} more" if len(offered) > _OFFERS_SHOWN else ""
    return f"; HIP's {hip_enum} has {shown}{more}"


def _unmigrated_argument(ctx: Context, ident: Identifier, row: Row, target: str) -> Iterator[Diagnostic]:
    """A ``migrate_arg`` argument that names neither an old nor a new value (a variable, a call): CUDA accepts
    either type there, HIP only the new one, and the text cannot tell which it is (HPY109)."""
    transform = row.transform
    args = ident.call_args
    if transform is None or transform.kind != "migrate_arg" or args is None or transform.arg >= len(args):
        return
    start, end = args[transform.arg]
    words = set(_WORD.findall(ctx.masked[start:end]))
    old, new = {a for a, _ in transform.values}, {b for _, b in transform.values}
    new_enum = {r.parent for name in new if (r := ctx.table.lookup(name)) is not None}
    if (
        start == end
        or words & old
        or any((r := ctx.table.lookup(w)) is not None and r.parent in new_enum for w in words)
    ):
        return
    old_enum = next((r.parent for name in sorted(old) if (r := ctx.table.lookup(name)) is not None), "an older type")
    new_type = next(iter(sorted(new_enum)), "")
    new_row = ctx.table.lookup(new_type)
    hip_type = (ctx.decide(new_row).target if new_row is not None else "") or new_type
    yield Diagnostic(
        "HPY109",
        f"{row.cuda}'s argument {transform.arg + 1} ({ctx.text[start:end].strip()}) may be a {old_enum}, which "
        f"CUDA's C++ overload converts; {target} takes only a {hip_type}: check which it is",
        start,
        severity=Severity.WARNING,
        subject=row.cuda,
    )


def _migrated_values(ctx: Context) -> dict[int, Row]:
    """The rows that the old enum values in a ``migrate_arg`` argument are translated as, by their offsets."""
    spans: list[tuple[Span, dict[str, str]]] = []
    for ident, row in ctx.resolved:
        transform = row.transform
        if transform is None or transform.kind != "migrate_arg" or ident.call_args is None:
            continue
        if 0 <= transform.arg < len(ident.call_args):
            spans.append((ident.call_args[transform.arg], dict(transform.values)))
    if not spans:
        return {}
    out: dict[int, Row] = {}
    for ident, _ in ctx.resolved:
        for (start, end), values in spans:
            if start <= ident.start < end and ident.name in values:
                new = ctx.table.lookup(values[ident.name])
                if new is not None:
                    out[ident.start] = new
    return out


# Operators that use a macro's value, not only whether it is defined.
_VALUE_OPERATORS = frozenset(("<", ">", "<=", ">=", "==", "!=", "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"))


def _tests_definition(ident: Identifier, row: Row) -> bool:
    """For a ``defined_only`` row (``__CUDA_ARCH__``): is this use a test of its definition
    (``#ifdef``, ``defined(X)``, a bare ``#if X``)? Other rows: always true."""
    if row.transform is None or row.transform.kind != "defined_only":
        return True
    if ident.directive not in CONDITION_DIRECTIVES:
        return False
    return ident.prev_token not in _VALUE_OPERATORS and ident.next_token not in _VALUE_OPERATORS


def _value_use(ident: Identifier, row: Row) -> Diagnostic:
    return Diagnostic(
        "HPY110",
        f"{row.cuda} is used for its value here; only whether it is defined has a HIP meaning "
        f"({row.hip}): left as written, check which branch HIP needs",
        ident.start,
        severity=Severity.WARNING,
        subject=row.cuda,
    )


_CASE_BEFORE = re.compile(r"\bcase\s+$")
_COLON_AFTER = re.compile(r"\s*:(?!:)")


def _case_label(text: str, ident: Identifier) -> Span | None:
    """The span of ``case NAME:`` around ``ident``, when it is exactly that (no comment inside)."""
    if ident.prev_token != "case" or ident.next_token != ":" or ident.directive:
        return None
    before = _CASE_BEFORE.search(text, max(0, ident.start - 64), ident.start)
    after = _COLON_AFTER.match(text, ident.end)
    if before is None or after is None:
        return None
    return before.start(), after.end()


def _names_a_macro(ident: Identifier) -> bool:
    """The name a ``#define`` or ``#undef`` is about: the user's macro, never rewritten."""
    return ident.directive == "undef" or (ident.directive == "define" and ident.prev_token == "define")


def _removal(ctx: Context, ident: Identifier, row: Row) -> Edit | None:
    """Delete a calling-convention macro HIP lacks (``CUSPARSEAPI``) -- except where the
    preprocessor tests it: ``#ifdef CUSPARSEAPI`` asks whether cusparse.h was included, which
    for HIP is a question for the guard of the header that replaces it (HIPSPARSE_H); with no
    such guard the test is left as written (false under HIP, as the header is gone)."""
    if ident.directive in CONDITION_DIRECTIVES:
        guard = ctx.index.header_guards.get(row.cuda_header, ident.name)
        return Edit(ident.start, ident.end, guard, "HPY001", ident.origin, row.cuda)
    text = ctx.text
    if not ident.directive and _opens_line_before_hash(ctx.masked, ident, ctx.index.removed):
        return None  # deleting it (and its like on the line) would make the '#' after it start a directive line
    if joins_neighbours(ctx.masked, ident.start, ident.end, ctx.index.removed, ctx.code_directives):
        return None  # ``cub CUBLASAPI ::x`` must not become ``cub ::x``, which a second translation reads anew
    before = text[ident.start - 1] if ident.start else " "
    after = text[ident.end] if ident.end < len(text) else " "
    # A blank keeps the neighbours two tokens (x/CUBLASAPI*y must not become x/*y).
    glue = not before.isspace() and not after.isspace()
    return Edit(ident.start, ident.end, " " if glue else "", "HPY009", ident.origin, row.cuda)


_SPLICE_AT_END = re.compile(r"\\[ \t\f\v]*\Z")
_SPLICES = re.compile(r"\\[ \t\f\v]*(?:\r\n|\n\r|[\r\n])")


def _opens_line_before_hash(masked: str, ident: Identifier, removed: frozenset[str]) -> bool:
    """Would ``#`` start the line once ``ident`` and the other deleted macros before it (``CUDART_CB CUBLASAPI #``)
    are gone? Read on the masked text, where a comment is blanks: a line end inside one ends no line
    (``CUDART_CB/*<newline>*/#`` is one line to the compiler)."""
    end = line_end(masked, ident.end)
    while _SPLICE_AT_END.search(masked, 0, end) and end < len(masked):  # a '#' after a splice is on this line too
        end = line_end(masked, end + (2 if masked[end : end + 2] in ("\r\n", "\n\r") else 1))
    hash_at = masked.find("#", ident.end, end)
    if hash_at < 0:
        return False
    start = line_start(masked, ident.start)
    kept = _WORD.sub(lambda m: "" if m.group() in removed else m.group(), masked[start:hash_at])
    return not _SPLICES.sub("", kept).strip(" \t\f\v")


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
    written = _squeeze(ctx.text[start:end])
    if start == end or written.startswith(_squeeze(transform.wrapper) + "("):
        return  # already wrapped (idempotence)
    cast_to = _squeeze(transform.wrapper).removeprefix("reinterpret_cast<").removesuffix(">")
    if cast_to != _squeeze(transform.wrapper) and written.startswith(f"({cast_to})"):
        return  # already cast to that type, C style: `(void**)&p`
    if not _closes_in_code(ctx.text, start, end):
        return  # the argument ends in a // comment or a literal left open: a ')' there would be part of it
    if any(start <= s < end for s, _ in ctx.code_directives):
        return  # a directive line inside it: a wrapper before its '#' would make it code
    subject = f"{row.cuda}:{start}"
    yield Edit(start, start, transform.wrapper + "(", "HPY005", Origin.TEXT, subject=subject)
    yield Edit(end, end, ")", "HPY005", Origin.TEXT, subject=subject)


def _default_arguments(ctx: Context, ident: Identifier, row: Row) -> Iterator[Edit]:
    """CUDA's default arguments HIP's declaration lacks (``default_args``), written after the call's last argument
    (``cudaMalloc3DArray(&a, &desc, extent)`` -> ``hipMalloc3DArray(&a, &desc, extent, 0)``); a name in a default
    is translated like any other."""
    transform = row.transform
    args = ident.call_args
    if transform is None or transform.kind != "default_args" or not args or args[-1][0] == args[-1][1]:
        return
    defaults = {int(k): v for k, v in transform.values}
    missing = range(len(args), max(defaults) + 1)
    if not missing or any(k not in defaults for k in missing):
        return
    if not _closes_in_code(ctx.text, *args[-1]):
        return  # the last argument ends in a // comment
    texts = [_WORD.sub(lambda m: _translated_word(ctx, m.group()), defaults[k]) for k in missing]
    end = args[-1][1]
    yield Edit(end, end, "".join(", " + t for t in texts), "HPY005", Origin.TEXT, subject=f"{row.cuda}:{end}")


def _translated_word(ctx: Context, word: str) -> str:
    row = ctx.table.lookup(word)
    target = ctx.decide(row).target if row is not None else ""
    return target or word


def _closes_in_code(text: str, start: int, end: int) -> bool:
    """Is a ``)`` inserted at ``end`` code, after the argument ``text[start:end]`` (which starts in code)?"""
    piece = text[start:end] + ")"
    lexed = lex(piece)
    last = len(piece) - 1
    return not any(s <= last < e for s, e in lexed.comments + lexed.literals)


def _squeeze(text: str) -> str:
    """Text without blanks, to compare ``reinterpret_cast<const void*>`` however spaced."""
    return "".join(text.split())
