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
from ..registry import Finding, register

_DEVICE_ONLY = re.compile(r"__(?:global|device)__")  # a word of its own: checked by _is_word (a leading
# lookbehind would be tried at every offset of the file)
_HOST = re.compile(r"(?<![\w$])__host__(?![\w$])")
_BODY_OR_END = re.compile(r"[{;]")
_BRACE = re.compile(r"[{}]")
_NAME_BEFORE_PARAMETERS = re.compile(r"([A-Za-z_]\w*)\s*\(")
# The kernel's name before the chevrons: ``ns::child``, ``child<T, 4>`` (its template arguments, if any, skipped).
_KERNEL_BEFORE = re.compile(r"([A-Za-z_][\w:]*)\s*(?:<[^<>;{}]*>)?\s*\Z")


@register("device_launches")
def device_launches(ctx: Context) -> Iterator[Finding]:
    masked = ctx.masked
    if "<<<" not in masked:
        return
    keywords = [m.start() for m in _DEVICE_ONLY.finditer(masked) if _is_word(masked, m.start(), m.end())]
    if not keywords:
        return
    at = masked.find("<<<")
    while at >= 0:
        function = _device_function_around(masked, keywords, at)
        if function is not None and ctx.allowed(at):
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


def _device_function_around(masked: str, keywords: list[int], at: int) -> str | None:
    """The name of the device-only function whose body holds offset ``at`` ("" when unnamed), or None. Functions do
    not nest, so only the nearest device keyword before ``at`` that opens a body can be it: if that body closes
    before ``at``, the launch is host code."""
    for keyword in reversed([k for k in keywords if k < at]):
        m = _BODY_OR_END.search(masked, keyword, at)
        if m is None:
            return None  # the launch is in the declaration's own head
        if m.group() == ";":
            continue  # a __device__ variable or a prototype: not a body
        head_start = max(masked.rfind(";", 0, keyword), masked.rfind("}", 0, keyword)) + 1
        head = masked[head_start : m.start()]
        if _HOST.search(head):
            return None  # __host__ __device__: the host can launch
        if _closes_before(masked, m.start(), at):
            return None
        names = _NAME_BEFORE_PARAMETERS.findall(head)
        return names[0] if names else ""
    return None


def _is_word(text: str, start: int, end: int) -> bool:
    return not (start and _word_char(text[start - 1])) and not (end < len(text) and _word_char(text[end]))


def _word_char(char: str) -> bool:
    return char.isalnum() or char in "_$"


def _closes_before(masked: str, opening: int, at: int) -> bool:
    """Does the brace at ``opening`` close before offset ``at``?"""
    depth = 0
    for m in _BRACE.finditer(masked, opening, at):
        depth += 1 if m.group() == "{" else -1
        if depth == 0:
            return True
    return False
