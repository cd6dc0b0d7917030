"""A kernel launched from device code (CUDA's dynamic parallelism) is reported where it stands (HPY124).

``child<<<g, b>>>(...)`` inside a ``__global__`` or ``__device__`` function needs the GPU to launch kernels itself;
HIP has no such launch on AMD GPUs, so hipcc rejects it, translated or not. A launch is a ``<<<`` of the code (the
masked text: not a comment or a string), its kernel the name before it, its function the body it stands in: one
opened after a ``__global__`` or ``__device__`` (without ``__host__``) and not closed before the launch.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model import Diagnostic, Severity
from ..context import Context
from ..device_bodies import device_body_around, device_keywords
from ..registry import Finding, register

# The kernel's name before the chevrons: ``ns::child``, ``child<T, 4>`` (its template arguments, if any, skipped).
_KERNEL_BEFORE = re.compile(r"([A-Za-z_][\w:]*)\s*(?:<[^<>;{}]*>)?\s*\Z")


@register("device_launches")
def device_launches(ctx: Context) -> Iterator[Finding]:
    masked = ctx.masked
    if "<<<" not in masked:
        return
    keywords = device_keywords(masked)
    if not keywords:
        return
    at = masked.find("<<<")
    while at >= 0:
        body = device_body_around(masked, keywords, at)
        if body is not None and not body.host_too and ctx.allowed(at):  # __host__ __device__: the host can launch
            function = body.name
            kernel = _KERNEL_BEFORE.search(masked, max(0, at - 200), at)
            name = kernel.group(1) if kernel else "a kernel"
            yield Diagnostic(
                "HPY124",
                f"{name} is launched from device code ({function}): AMD GPUs cannot launch kernels from a kernel "
                "(CUDA's dynamic parallelism); launch it from the host",
                kernel.start(1) if kernel else at,
                severity=Severity.WARNING,
                subject=name,
            )
        at = masked.find("<<<", at + 3)
