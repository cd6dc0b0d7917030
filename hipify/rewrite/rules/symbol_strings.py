"""CUDA names that the program passes to the runtime as strings (HPY037).

Two of CUDA's interfaces take or give API names as text, so a program that uses them keeps CUDA names in string
literals, which the translation otherwise never edits:

- **Looking up driver functions by name.** ``cudaGetDriverEntryPoint("cuMemCreate", &fn, ...)`` (and
  ``cuGetProcAddress``) returns the driver function of that name. HIP's counterparts (``hipGetDriverEntryPoint``,
  ``hipGetProcAddress``) look up HIP's names ("the API base name": ``hipMemCreate``), so the CUDA name finds
  nothing, and the program stops (or falls back) at run time though it compiles. In a file that calls such a
  lookup, a literal argument naming a driver function becomes the HIP name (a helper taking the name and calling
  the lookup is the common shape, so any call's literal argument counts). A driver function HIP lacks is
  reported at the literal (HPY101): the lookup will not find it.
- **Comparing error names.** ``cudaGetErrorName(e)`` gives the enumerator's name; HIP's ``hipGetErrorName``
  gives HIP's (``hipErrorInvalidDevice``). In a file that calls an error-name function, a literal naming an error
  enumerator compared with ``==``/``!=`` or passed to ``strcmp``/``strncmp`` becomes the HIP name.

Only a literal whose whole text is one such name changes; messages (``"cudaMalloc failed"``) never do. The HIP
name is AMD's answer: on HIP's NVIDIA platform ``hipGetDriverEntryPoint`` forwards to CUDA's, which wants CUDA's
names (a program built for both keeps a branch of its own for that).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...knowledge.table import Row
from ...lexing.text_facts import next_token, prev_token
from ...model import Diagnostic, Edit, Origin, Severity
from ..context import Context
from ..registry import Finding, register

# CUDA's functions returning a driver function for its name (CUDA Runtime API "Driver Entry Point Access", Driver
# API "cuGetProcAddress").
LOOKUPS = frozenset(
    ("cudaGetDriverEntryPoint", "cudaGetDriverEntryPointByVersion", "cuGetProcAddress", "cuGetProcAddress_v2")
)
# CUDA's functions returning an error enumerator's name.
ERROR_NAMES = frozenset(("cudaGetErrorName", "cuGetErrorName"))
_ERROR_TYPES = frozenset(("cudaError", "cudaError_t", "cudaError_enum", "CUresult"))
_COMPARES = frozenset(("strcmp", "strncmp"))
_LITERAL = re.compile(r'"([A-Za-z_]\w*)"')


@register("symbol_strings")
def symbol_strings(ctx: Context) -> Iterator[Finding]:
    if '"cu' not in ctx.text and '"CU' not in ctx.text:  # cuMemCreate, cudaErrorX, CUDA_ERROR_X
        return
    masked = ctx.masked
    lookups, error_names = _calls_any(masked, LOOKUPS), _calls_any(masked, ERROR_NAMES)
    if not lookups and not error_names:
        return
    for m in _LITERAL.finditer(ctx.text):
        start, end = m.start(), m.end()
        if masked[start] != '"' or masked[end - 1] != '"' or masked[start + 1 : end - 1].strip():
            continue  # in a comment, or not one literal
        if not ctx.allowed(start) or ctx.in_directive(start):
            continue
        row = ctx.table.lookup(m.group(1))
        if row is None:
            continue
        if lookups and _driver_function(row) and _argument(masked, start, end):
            yield from _renamed(ctx, row, start, end, "looked up by name")
        elif error_names and _error_enumerator(row) and _compared(masked, start, end):
            yield from _renamed(ctx, row, start, end, "compared with an error name")


def _calls_any(masked: str, names: frozenset[str]) -> bool:
    """Does the code call one of ``names``? (str.find first: most files name none of them.)"""
    for name in names:
        at = masked.find(name)
        while at >= 0:
            end = at + len(name)
            word = (at == 0 or not (masked[at - 1].isalnum() or masked[at - 1] in "_$")) and not (
                end < len(masked) and (masked[end].isalnum() or masked[end] in "_$")
            )
            if word and next_token(masked, end)[0] == "(":
                return True
            at = masked.find(name, end)
    return False


def _renamed(ctx: Context, row: Row, start: int, end: int, why: str) -> Iterator[Finding]:
    target = ctx.decide(row).target
    if target:
        yield Edit(start + 1, end - 1, target, "HPY037", Origin.TEXT, subject=row.cuda)
        yield Diagnostic(
            "HPY037",
            f'"{row.cuda}" is {why}: HIP answers with its own names, so the string says "{target}"',
            start,
            severity=Severity.INFO,
            subject=row.cuda,
        )
    else:
        yield Diagnostic(
            "HPY101",
            f'"{row.cuda}" is {why}, and HIP has no counterpart of {row.cuda}: HIP will not find it at run time',
            start,
            severity=Severity.WARNING,
            subject=row.cuda,
        )


def _driver_function(row: Row) -> bool:
    return row.kind == "function" and row.api == "driver"


def _error_enumerator(row: Row) -> bool:
    return row.kind == "enum_constant" and row.parent in _ERROR_TYPES


def _argument(masked: str, start: int, end: int) -> bool:
    before, _ = prev_token(masked, start)
    after, _ = next_token(masked, end)
    return before in ("(", ",") and after in (")", ",")


def _compared(masked: str, start: int, end: int) -> bool:
    before, b_at = prev_token(masked, start)
    after, a_at = next_token(masked, end)
    if before in ("==", "!=") or masked[a_at : a_at + 2] in ("==", "!="):
        return True
    if before in ("(", ",") and after in (")", ","):
        return _callee(masked, b_at) in _COMPARES
    return False


def _callee(masked: str, at: int) -> str:
    """The function whose argument list holds the token at ``at`` (its ``(`` or a ``,`` in it), "" if none."""
    depth = 0
    i = at
    while i >= 0:
        c = masked[i]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            if depth == 0:
                if c != "(":
                    return ""
                name, _ = prev_token(masked, i)
                return name
            depth -= 1
        elif c == ";" and depth == 0:
            return ""
        i -= 1
    return ""
