"""A device function the code defines for itself where HIP's headers define it already (HPY014).

CUDA code defines ``atomicAdd(double*, double)`` for GPUs before sm_60 (the CUDA programming guide's own example,
behind ``#if __CUDA_ARCH__ < 600``, a branch HIP's device pass takes), or ``atomicMin(float*, float)``, which CUDA
lacks. HIP's headers for AMD GPUs define both (``Row.hip_definitions``, read from them): under HIP the code's
definition is a redefinition, and the file does not compile. The definition is put behind
``#if !defined(__HIP_PLATFORM_AMD__)``, visibly: on AMD GPUs calls go to HIP's, which does what the name says; HIP
on NVIDIA GPUs still gets the code's own. Only a definition for the device (``__device__``) with exactly the
parameter types of one of HIP's, in the global namespace, is concerned: another overload, a host function or a
function of the code's own namespace is the code's own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...lexing.parameters import parameter_types
from ...model import Diagnostic, Severity
from ..context import Context
from ..registry import Finding, register
from ..wrap import already_wrapped, wrap
from .overloads import parameter_span, translated_span

CONDITION = "!defined(__HIP_PLATFORM_AMD__)"


# A function declared for the device: its name is the word right before the first '(' after __device__.
_DEVICE_FUNCTION = re.compile(r"__device__[^;{}()]*?([A-Za-z_$][\w$]*)\s*\(")


@register("builtin_definitions")
def builtin_definitions(ctx: Context) -> Iterator[Finding]:
    defined = ctx.index.defined_by_hip
    if not defined or "__device__" not in ctx.text:
        return
    # Top-level declarations are found only in a file that declares such a name for the device (most files only
    # call atomicAdd or __syncthreads).
    if not any(m.group(1) in defined for m in _DEVICE_FUNCTION.finditer(ctx.masked)):
        return
    for decl in ctx.declarations:
        lists = defined.get(decl.name) if decl.kind == "function" and not decl.in_namespace else None
        if not lists or "__device__" not in ctx.masked[decl.start : decl.name_at].split():
            continue
        span = parameter_span(ctx.masked, decl)
        if span is None or not ctx.allowed(decl.name_at):
            continue
        types = parameter_types(translated_span(ctx, span))
        if types not in lists or already_wrapped(ctx.text, decl, CONDITION):
            continue
        signature = f"{decl.name}({', '.join(types)})"
        why = f"HIP's headers define {signature} for AMD GPUs: this definition would redefine it"
        yield Diagnostic("HPY014", f"{why}; disabled there", decl.name_at, severity=Severity.WARNING,
                         subject=decl.name)  # fmt: skip
        yield from wrap(ctx.text, ctx.newline, decl, why, CONDITION, "HPY014")
