"""A kernel launched from device code (CUDA's dynamic parallelism) is reported where it stands (HPY124).

``child<<<g, b>>>(...)`` inside a ``__global__`` or ``__device__`` function needs the GPU to launch kernels itself;
HIP has no such launch on AMD GPUs, so hipcc rejects it, translated or not. A launch is a ``<<<`` of the code (the
masked text: not a comment or a string), its kernel the name before it, its function the top-level declaration
around it: a function declared ``__global__``, or ``__device__`` without ``__host__``. Only files with both a
``<<<`` and a device function pay for the declarations.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from ...model import Diagnostic, Severity
from ..context import Context
from ..registry import Finding, register

_DEVICE_ONLY = re.compile(r"(?<![\w$])(__global__|__device__)(?![\w$])")
_HOST = re.compile(r"(?<![\w$])__host__(?![\w$])")
_CHEVRONS = re.compile(r"<<<")
# The kernel's name before the chevrons: ``ns::child``, ``child<T, 4>`` (its template arguments, if any, skipped).
_KERNEL_BEFORE = re.compile(r"([A-Za-z_][\w:]*)\s*(?:<[^<>;{}]*>)?\s*\Z")


@register("device_launches")
def device_launches(ctx: Context) -> Iterator[Finding]:
    masked = ctx.masked
    if "<<<" not in masked or _DEVICE_ONLY.search(masked) is None:
        return
    functions = [d for d in ctx.declarations if d.kind == "function"]
    starts = [d.start for d in functions]
    for m in _CHEVRONS.finditer(masked):
        at = m.start()
        i = bisect.bisect_right(starts, at) - 1
        if i < 0 or not (functions[i].head_end < at < functions[i].end):
            continue
        head = masked[functions[i].start : functions[i].head_end]
        if not _DEVICE_ONLY.search(head) or _HOST.search(head) or not ctx.allowed(at):
            continue
        kernel = _KERNEL_BEFORE.search(masked, max(0, at - 200), at)
        name = kernel.group(1) if kernel else "a kernel"
        yield Diagnostic(
            "HPY124",
            f"{name} is launched from device code ({functions[i].name or 'a kernel'}): AMD GPUs cannot launch "
            "kernels from a kernel (CUDA's dynamic parallelism); launch it from the host",
            kernel.start(1) if kernel else at,
            severity=Severity.WARNING,
            subject=name,
        )
