"""Inline PTX assembly is reported where it stands (HPY117): AMD GPUs do not run PTX.

``asm volatile("mov.u32 %0, %%laneid;" : "=r"(id))`` is NVIDIA's virtual instruction set written into device code;
hipcc rejects it, and no renaming helps. The finding names the instruction and, where HIP has a builtin that does the
same, that builtin. An ``asm`` statement is taken for PTX when its template starts with a dotted PTX opcode
(``mov.u32``, ``cp.async.cg.shared.global``) or reads a PTX special register (``%%laneid``): the host's assembly
(``rdtsc``) and an empty compiler barrier (``asm volatile("" ::: "memory")``) are left alone, and so is PTX inside an
``#if`` branch (``#ifdef PTX`` with a plain fallback, ``#if __CUDA_ARCH__ >= 800``): which branch a HIP build takes is
the build's choice (HPY110 reports the comparisons of ``__CUDA_ARCH__``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model import Diagnostic, Severity
from ..context import Context
from ..layout import unconditional
from ..registry import Finding, register

_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
_OPENING = re.compile(r"\s*(?:(?:volatile|__volatile__|inline|goto)\s*)*\(\s*")
_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
# A PTX instruction: an opcode with its type and state-space suffixes, maybe after '{' and register declarations.
_PTX_OPCODE = re.compile(r"\s*(?:\{\s*)?(?:\.reg\b[^;]*;\s*)*([a-z][a-z0-9]*(?:\.[a-z][a-z0-9_]*)+)")
_PTX_REGISTER = re.compile(r"%%(laneid|warpid|nwarpid|smid|nsmid|gridid|lanemask_\w+|clock64|clock|globaltimer)\b")
# What HIP offers for the instruction: by special register, by opcode (".ftz" dropped), or by the opcode's first parts.
_HIP_COUNTERPARTS = {
    "laneid": "__lane_id()",
    "clock": "clock64()",
    "clock64": "clock64()",
    "globaltimer": "wall_clock64()",
    "shfl.sync": "the __shfl*_sync warp functions",
    "tanh.approx.f32": "tanhf()",
    "rcp.approx.f32": "__frcp_rn()",
    "rsqrt.approx.f32": "rsqrtf()",
    "lg2.approx.f32": "__log2f()",
    "ex2.approx.f32": "exp2f()",
    "ex2.approx.f16": "hexp2()",
    "ex2.approx.f16x2": "h2exp2()",
}


@register("inline_ptx")
def inline_ptx(ctx: Context) -> Iterator[Finding]:
    if "asm" not in ctx.text:
        return
    masked, text = ctx.masked, ctx.text
    for start, end in _asm_keywords(masked):
        opening = _OPENING.match(masked, end)
        literal = _LITERAL.match(text, opening.end()) if opening else None
        if literal is None or not ctx.allowed(start):
            continue
        if not unconditional(text, ctx.facts.directives, ctx.facts.comments, start):
            continue  # behind #ifdef PTX, with a fallback, or a macro only CUDA's newer GPUs define: the build decides
        instruction = _ptx_instruction(literal.group(1))
        if not instruction:
            continue
        plain = instruction.replace(".ftz", "")
        counterpart = _HIP_COUNTERPARTS.get(plain) or _HIP_COUNTERPARTS.get(".".join(plain.split(".")[:2]))
        advice = f"HIP has {counterpart}" if counterpart else "write it with a HIP builtin or plain code"
        yield Diagnostic(
            "HPY117",
            f"inline PTX assembly ({instruction}): AMD GPUs do not run PTX; {advice}",
            start,
            severity=Severity.WARNING,
            subject=f"asm {instruction}",
        )


def _asm_keywords(masked: str) -> Iterator[tuple[int, int]]:
    """Spans of the keywords asm, __asm and __asm__ (str.find: a regex scan for them is ten times slower)."""
    at = masked.find("asm")
    while at >= 0:
        start = at - 2 if masked[max(0, at - 2) : at] == "__" else at
        end = at + 5 if start < at and masked[at + 3 : at + 5] == "__" else at + 3
        if (start == 0 or masked[start - 1] not in _WORD) and (end == len(masked) or masked[end] not in _WORD):
            yield start, end
        at = masked.find("asm", at + 3)


def _ptx_instruction(template: str) -> str:
    """The PTX opcode or special register the template uses ('' when it does not look like PTX)."""
    register = _PTX_REGISTER.search(template)
    if register is not None:
        return register.group(1)
    opcode = _PTX_OPCODE.match(template)
    return opcode.group(1) if opcode is not None else ""
