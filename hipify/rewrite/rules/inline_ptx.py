"""Inline PTX assembly is reported where it stands (HPY117): AMD GPUs do not run PTX.

``asm volatile("mov.u32 %0, %%laneid;" : "=r"(id))`` is NVIDIA's virtual instruction set written into device code;
hipcc rejects it, and no renaming helps. The finding names the instruction and, where HIP has a builtin that does the
same, that builtin. An ``asm`` statement is taken for PTX when its template starts with a dotted PTX opcode
(``mov.u32``, ``cp.async.cg.shared.global``) or reads a PTX special register (``%%laneid``): the host's assembly
(``rdtsc``) and an empty compiler barrier (``asm volatile("" ::: "memory")``) are left alone, and so is PTX inside an
``#if`` branch (``#ifdef PTX`` with a plain fallback, ``#if __CUDA_ARCH__ >= 800``): which branch a HIP build takes is
the build's choice (HPY110 reports the comparisons of ``__CUDA_ARCH__``).

A statement of one instruction that HIP has exactly (HPY025) is translated instead, wherever it stands:
``red.global.add.{u32,s32,u64,f32,f64}`` (an atomic add whose result is unused) becomes ``atomicAdd`` on the asm's
operands, ``activemask.b32`` ``__ballot(1)`` (what HIP's ``__activemask()`` is, declared on ROCm 6 only with the warp-sync
builtins), a read of ``%laneid`` ``__lane_id()`` and of ``%clock``/``%clock64``
``clock()``/``clock64()``. ``%globaltimer`` stays reported: HIP's ``wall_clock64()`` counts at the device's wall-clock
rate, not in nanoseconds, so a duration computed from it would be silently wrong.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...lexing.brackets import Brackets
from ...model import Diagnostic, Edit, Origin, Severity
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
        assert opening is not None
        translated = _translation(text, masked, start, opening.end() - 1, literal.group(1))
        if translated is not None:
            yield translated
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


# One instruction, HIP's exact counterpart: (template pattern, the HIP expression of its operands)
_RED_ADD = re.compile(r"red(?:\.relaxed)?(?:\.gpu)?(?:\.global)?\.add\.(u32|s32|u64|f32|f64)\s+\[%(\d+)\]\s*,\s*%(\d+)")
_RED_TYPES = {"u32": "unsigned int", "s32": "int", "u64": "unsigned long long", "f32": "float", "f64": "double"}
_READ = re.compile(
    r"(?:mov\.(?:u32|b32|u64|b64|s32|s64)\s+%(\d+)\s*,\s*%%(laneid|clock64|clock)|activemask\.b32\s+%(\d+))"
)
_READS = {"laneid": "__lane_id()", "clock": "clock()", "clock64": "clock64()", "activemask": "__ballot(1)"}
_OPERAND = re.compile(r'\s*(?:\[\w+\]\s*)?"([^"]*)"\s*\((.*)\)\s*', re.DOTALL)
_SIMPLE_LVALUE = re.compile(r"[A-Za-z_]\w*(?:(?:\.|->)[A-Za-z_]\w*|\[[^\[\]]*\])*")


def _translation(text: str, masked: str, start: int, paren: int, template: str) -> Edit | None:
    """The asm statement ``asm volatile(...)`` at ``start`` as the HIP call doing the same (None: no exact one)."""
    body = template.replace("\\n", "").replace("\\t", " ").strip().rstrip(";").strip()
    if ";" in body or "{" in body:
        return None  # more than one instruction
    brackets = Brackets(masked)
    if brackets.args(paren, len(masked)) is None:
        return None
    close = brackets.close_of(paren)
    parts = _split(masked, text, paren + 1, close, ":")
    if len(parts) < 2 or _LITERAL.fullmatch(text[parts[0][0] : parts[0][1]].strip()) is None:
        return None
    outputs = _operands(masked, text, parts[1])
    inputs = _operands(masked, text, parts[2]) if len(parts) > 2 else []
    if outputs is None or inputs is None:
        return None
    operands = [*outputs, *inputs]
    red = _RED_ADD.fullmatch(body)
    if red is not None and not outputs:
        kind, address, value = red.group(1), int(red.group(2)), int(red.group(3))
        if max(address, value) >= len(operands):
            return None
        c_type = _RED_TYPES[kind]
        call = f"atomicAdd(({c_type}*)({operands[address]}), ({c_type})({operands[value]}))"
        return Edit(start, close + 1, call, "HPY025", Origin.TEXT, subject=f"asm red.add.{kind}")
    read = _READ.fullmatch(body)
    if read is not None and len(outputs) == 1 and not inputs:
        register = read.group(2) or "activemask"
        if int(read.group(1) or read.group(3)) != 0:
            return None
        target = outputs[0] if _SIMPLE_LVALUE.fullmatch(outputs[0]) else f"({outputs[0]})"
        return Edit(
            start, close + 1, f"{target} = {_READS[register]}", "HPY025", Origin.TEXT, subject=f"asm {register}"
        )
    return None


def _split(masked: str, text: str, start: int, end: int, separator: str) -> list[tuple[int, int]]:
    """Spans of ``[start, end)`` between the ``separator`` characters outside brackets (masked: not in literals)."""
    spans: list[tuple[int, int]] = []
    depth, begin = 0, start
    for i in range(start, end):
        char = masked[i]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == separator and depth == 0:  # '::' (no outputs) is two separators
            spans.append((begin, i))
            begin = i + 1
    spans.append((begin, end))
    return spans


def _operands(masked: str, text: str, section: tuple[int, int]) -> list[str] | None:
    """The expressions of an asm operand list (``"=r"(x), "l"(p)``); None when one is not of that shape."""
    if not text[section[0] : section[1]].strip():
        return []
    found: list[str] = []
    for start, end in _split(masked, text, *section, ","):
        m = _OPERAND.fullmatch(text[start:end])
        if m is None:
            return None
        found.append(m.group(2).strip())
    return found
