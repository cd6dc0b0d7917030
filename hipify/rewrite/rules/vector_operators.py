"""Operators on CUDA's vector types that HIP's vector types define already (HPY015, HPY116).

CUDA gives ``float2`` and its kin no arithmetic, so code brings its own (``helper_math.h``, copied from CUDA's samples
into countless projects): ``__host__ __device__ float2 operator*(float2 a, float2 b)``. HIP's vector types define
``*`` and ``/`` of two vectors, and the compound assignments, for host and device alike: with the code's own, every
``a * b`` of two ``float2`` is ambiguous under HIP and the file does not compile. (HIP's other operators are
templates, which the code's own beat; an operator for the host or the device only is preferred where it is called.)

A definition whose body is the component-wise operation HIP's is (``return make_float2(a.x * b.x, a.y * b.y);``,
``a.x *= b.x; a.y *= b.y;``) goes behind ``#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_CPU_RT__)``,
visibly: HIP's does the same, and so do HIP-CPU's vector types (``validate --run`` on a machine without a GPU). One
that computes something else (a complex product on ``float2``) is reported: it must be renamed by hand.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...lexing.declarations import Declaration
from ...lexing.parameters import parameter_names, parameter_types
from ...model import Diagnostic, Severity
from ..context import Context
from ..registry import Finding, register
from ..wrap import already_wrapped, wrap
from .builtin_definitions import CONDITION as AMD_ONLY
from .overloads import parameter_span

# CUDA's built-in vector types, each a HIP_vector_type under HIP.
_VECTOR = re.compile(r"(?:u?char|u?short|u?int|u?long|u?longlong|float|double)([1-4])")
_BINARY = frozenset(("*", "/"))  # HIP's non-template operators of two vectors
_COMPOUND = frozenset(("+=", "-=", "*=", "/=", "%=", "^=", "|=", "&=", "<<=", ">>="))  # HIP's members
_OPERATOR = re.compile(r"\boperator\s*(<<=|>>=|[-+*/%^|&]=|[*/])\s*\(")
_DEFINES_ONE = re.compile(r"operator\s*(?:<<=|>>=|[-+*/%^|&]=|[*/])\s*\(")  # no \b: a leading literal scans fast
_FIELDS = "xyzw"
# Where HIP's vector types define these operators: AMD GPUs, and HIP-CPU (whose hip_runtime.h defines __HIP_CPU_RT__).
CONDITION = f"{AMD_ONLY} && !defined(__HIP_CPU_RT__)"


@register("vector_operators")
def vector_operators(ctx: Context) -> Iterator[Finding]:
    if "operator" not in ctx.text or not _defines_one(ctx.masked):
        return  # top-level declarations are found only in a file that defines such an operator
    for decl in ctx.declarations:
        if decl.kind != "function" or decl.name != "operator" or decl.in_namespace:
            continue
        clash = _clash(ctx, decl)
        if clash is None or not ctx.allowed(decl.start):
            continue
        op, vector, component_wise = clash
        what = f"operator{op} of two {vector}"
        if not component_wise:
            yield Diagnostic(
                "HPY116",
                f"HIP's vector types define {what} component-wise, so a {op} of two {vector} is ambiguous under "
                "HIP; this definition computes something else: rename it (and its uses)",
                decl.name_at,
                severity=Severity.WARNING,
                subject=f"operator{op}",
            )
            continue
        if already_wrapped(ctx.text, decl, CONDITION) or already_wrapped(ctx.text, decl, AMD_ONLY):
            continue
        why = f"HIP's vector types define {what} for AMD GPUs, component-wise like this one, which would make it ambiguous"
        yield Diagnostic("HPY015", f"{why}; disabled there", decl.name_at, severity=Severity.WARNING,
                         subject=f"operator{op}")  # fmt: skip
        yield from wrap(ctx.text, ctx.newline, decl, why, CONDITION, "HPY015")


def _defines_one(masked: str) -> bool:
    """Does a host-and-device operator of the kind HIP defines appear (a cheap test on the text)?"""
    for m in _DEFINES_ONE.finditer(masked):
        head = masked[max(masked.rfind(c, 0, m.start()) for c in ";{}") + 1 : m.start()].split()
        if "__host__" in head and "__device__" in head:
            return True
    return False


def _clash(ctx: Context, decl: Declaration) -> tuple[str, str, bool] | None:
    """(operator, vector type, is its body component-wise) for a host-and-device operator of the kind HIP defines."""
    head = ctx.masked[decl.start : decl.head_end]
    words = head.split()
    if "__host__" not in words or "__device__" not in words:
        return None
    m = _OPERATOR.search(head)
    span = parameter_span(ctx.masked, decl)
    if m is None or span is None:
        return None
    op, parameters = m.group(1), ctx.masked[span[0] : span[1]]
    types, names = parameter_types(parameters), parameter_names(parameters)
    if types is None or names is None or len(types) != 2 or not all(names):
        return None
    plain = [t.removeprefix("const ").removesuffix("&") for t in types]
    vector = _VECTOR.fullmatch(plain[0])
    if vector is None or plain[1] != plain[0]:
        return None
    if op in _BINARY and types[0] in (plain[0], f"const {plain[0]}&") and types[1] in (plain[0], f"const {plain[0]}&"):
        expected = _binary_bodies(op, plain[0], int(vector.group(1)), names)
    elif op in _COMPOUND and types[0] == f"{plain[0]}&" and types[1] in (plain[0], f"const {plain[0]}&"):
        expected = _compound_bodies(op, int(vector.group(1)), names)
    else:
        return None
    body = "".join(ctx.masked[decl.head_end : decl.end].split())
    return op, plain[0], body in expected


def _binary_bodies(op: str, vector: str, size: int, names: tuple[str, ...]) -> tuple[str, ...]:
    a, b = names
    parts = ",".join(f"{a}.{f}{op}{b}.{f}" for f in _FIELDS[:size])
    return (f"{{returnmake_{vector}({parts});}}", f"{{return{{{parts}}};}}")


def _compound_bodies(op: str, size: int, names: tuple[str, ...]) -> tuple[str, ...]:
    a, b = names
    steps = "".join(f"{a}.{f}{op}{b}.{f};" for f in _FIELDS[:size])
    return (f"{{{steps}}}", f"{{{steps}return{a};}}")
