"""Overloads that HIP's types make one function: the later definition is disabled (HPY011).

CUDA has two error types where HIP has one: ``_cudaGetErrorEnum(cudaError_t)`` and
``_cudaGetErrorEnum(CUresult)`` both become ``_cudaGetErrorEnum(hipError_t)``, a redefinition.
A top-level function definition whose parameter types, translated, equal those of an earlier
definition of the same name (while the CUDA ones differed) is put behind ``#if 0`` with a
comment saying why; calls go to the first, which takes the same HIP type.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...lexing.declarations import Declaration
from ...lexing.parameters import split_top_level
from ...model import Diagnostic, LineIndex, Severity
from ..context import Context
from ..registry import Finding, register
from ..wrap import already_wrapped, wrap

_TOKEN = re.compile(r"[A-Za-z_$][\w$]*|\S")
_COLLAPSING_KINDS = ("type", "enum")


def _collapsing_types(ctx: Context) -> bool:
    """Does the file use two CUDA types that HIP spells the same (the only way overloads collapse)?"""
    by_target: dict[str, set[str]] = {}
    for cuda, uses in ctx.uses_by_row.items():
        row = uses[0][1]
        if row.kind not in _COLLAPSING_KINDS or all(ident.user_declared for ident, _ in uses):
            continue
        target = ctx.decide(row).target
        if target:
            names = by_target.setdefault(target, set())
            names.add(cuda)
            if len(names) > 1:
                return True
    return False


@register("overloads")
def overloads(ctx: Context) -> Iterator[Finding]:
    if not _collapsing_types(ctx):
        return
    seen: dict[tuple[str, tuple[str, ...]], tuple[Declaration, tuple[str, ...]]] = {}
    lines = LineIndex.of(ctx.text)
    for decl in ctx.declarations:
        if decl.kind != "function" or not decl.name or decl.name_at < 0:
            continue
        params = parameter_span(ctx.masked, decl)
        if params is None:
            continue
        cuda_key = _parameter_types(ctx.text[params[0] : params[1]])
        hip_key = _parameter_types(translated_span(ctx, params))
        first = seen.setdefault((decl.name, hip_key), (decl, cuda_key))
        if first[0] is decl or first[1] == cuda_key:
            continue  # the first of its HIP signature, or the same CUDA signature (not ours to judge)
        condition = "0"
        if already_wrapped(ctx.text, decl, condition):
            continue
        line = lines.line_col(first[0].start)[0]
        why = f"under HIP this is the {decl.name} defined at line {line}: their parameter types are the same HIP types"
        yield Diagnostic("HPY011", f"{decl.name}: {why}; disabled", decl.name_at, severity=Severity.WARNING,
                         subject=decl.name)  # fmt: skip
        yield from wrap(ctx.text, ctx.newline, decl, why, condition, "HPY011")


def parameter_span(masked: str, decl: Declaration) -> tuple[int, int] | None:
    """The text between the parentheses after the function's name."""
    open_at = masked.find("(", decl.name_at, decl.head_end)
    close_at = masked.rfind(")", open_at, decl.head_end)
    return (open_at + 1, close_at) if 0 <= open_at < close_at else None


def translated_span(ctx: Context, span: tuple[int, int]) -> str:
    """The span's text with each table name replaced by its HIP target (as the renames rule does)."""
    pieces: list[str] = []
    cursor = span[0]
    for ident, row in ctx.resolved:
        if not span[0] <= ident.start < span[1] or ident.user_declared:
            continue
        target = ctx.decide(row).target
        if target:
            pieces += [ctx.text[cursor : ident.start], target.rsplit("::", 1)[-1]]
            cursor = ident.end
    pieces.append(ctx.text[cursor : span[1]])
    return "".join(pieces)


def _parameter_types(parameters: str) -> tuple[str, ...]:
    """Each parameter's tokens without its name (``const hipError_t err = x`` -> ``const hipError_t``)."""
    out = []
    for parameter in (p for p in split_top_level(parameters) if p.strip()):
        tokens = _TOKEN.findall(parameter.split("=", 1)[0])
        if len(tokens) > 1 and re.fullmatch(r"[A-Za-z_$][\w$]*", tokens[-1]) and tokens[-2] != ":":
            tokens = tokens[:-1]
        out.append(" ".join(tokens))
    return tuple(out)
