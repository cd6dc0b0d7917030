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

from collections.abc import Iterator

from ...lexing.parameters import parameter_types
from ...model import Diagnostic, Severity
from ..context import Context
from ..registry import Finding, register
from ..wrap import already_wrapped, wrap
from .overloads import parameter_span, translated_span

CONDITION = "!defined(__HIP_PLATFORM_AMD__)"


@register("builtin_definitions")
def builtin_definitions(ctx: Context) -> Iterator[Finding]:
    defined = ctx.index.defined_by_hip
    uses = ctx.uses_by_row
    # Only a file declaring such a name itself (most files just call atomicAdd or __syncthreads): the file's few
    # used rows are read, not HIP's many definitions, and top-level declarations are found only then.
    if not any(name in defined and any(i.user_declared for i, _ in found) for name, found in uses.items()):
        return
    for decl in ctx.declarations:
        lists = defined.get(decl.name) if decl.kind == "function" and not decl.in_namespace else None
        if not lists or "__device__" not in ctx.masked[decl.start : decl.name_at].split():
            continue
        at_name = next((i for i, _ in uses.get(decl.name, ()) if i.start == decl.name_at), None)
        span = parameter_span(ctx.masked, decl)
        if at_name is None or span is None or not ctx.allowed(at_name.start, at_name.region):
            continue
        types = parameter_types(translated_span(ctx, span))
        if types not in lists or already_wrapped(ctx.text, decl, CONDITION):
            continue
        signature = f"{decl.name}({', '.join(types)})"
        why = f"HIP's headers define {signature} for AMD GPUs: this definition would redefine it"
        yield Diagnostic("HPY014", f"{why}; disabled there", decl.name_at, severity=Severity.WARNING,
                         subject=decl.name)  # fmt: skip
        yield from wrap(ctx.text, ctx.newline, decl, why, CONDITION, "HPY014")
