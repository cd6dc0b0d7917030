"""Integer arithmetic on texture and surface object handles (HPY028).

CUDA's ``cudaTextureObject_t`` and ``cudaSurfaceObject_t`` are ``unsigned long long``; HIP's are pointers to
incomplete structs, on which ``tex + i``, ``tex - base``, ``tex % n``, ``(int)tex``, ``table[tex]`` and
``tex == n`` do not compile. As for ``CUdeviceptr`` (rules/device_pointers.py), the type stays and each such
expression gets the integer back:

- an operand of ``%``, ``/``, ``^``, ``&``, ``|``, ``<<``, ``>>``, a subscript, the operand of a cast to an integer
  type (``(int)tex``, ``static_cast<int>(tex)``), or a side of ``==``/``!=`` whose other side is an integer:
  ``(unsigned long long)tex``, CUDA's own type;
- ``a - b`` of two handles: both operands so, an integer distance as in CUDA;
- ``tex + i`` (``- i``): a handle again where it is used as one (an argument, a handle's initializer, a
  ``return``): ``(hipTextureObject_t)((unsigned long long)tex + i)``; an integer where it is one (a subscript, the
  initializer of a name of another type): ``(unsigned long long)tex + i``.

``tex == 0u``, ``tex != 0``, ``!tex`` and comparisons of two handles compile as they are and are left alone.
Which names are handles is read from the file's declarations, as for device pointers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ...knowledge.table import MappingTable
from ...lexing.text_facts import next_token, prev_token
from ...model import Diagnostic, Edit, Origin, Severity
from ..context import Context
from ..registry import Finding, register
from .device_pointers import (
    OPERAND_STARTS,
    binary_operator_before,
    declared_names,
    name_uses,
    operand_start,
    typed_names,
)

# HIP's handle types that are pointers where CUDA's are integers (hip/texture_types.h, hip/surface_types.h).
HIP_POINTER_HANDLES = frozenset(("hipTextureObject_t", "hipSurfaceObject_t"))
_INTEGER = "(unsigned long long)"
_TWO = frozenset(("==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|="))
# Operators that end an additive expression (lower precedence), at bracket depth 0.
_CHAIN_STOPS = frozenset(
    (",", ";", ")", "]", "}", "?", ":", "=", "==", "!=", "<=", ">=", "<", ">", "&&", "||", "&", "|", "^", "<<", ">>",
     "+=", "-=", "*=", "/=", "%=", "&=", "|=", "")
)  # fmt: skip
_INTEGER_WORDS = frozenset(
    ("int", "unsigned", "signed", "short", "long", "char", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t",
     "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "std")
)  # fmt: skip
_NULLS = re.compile(r"0[uUlL]*|nullptr|NULL")
_CAST_BEFORE = re.compile(r"(?:static_cast|reinterpret_cast)\s*<\s*([\w\s:]+?)\s*>\s*\($")
_PAREN_TYPE = re.compile(r"\(\s*([\w\s:]+?)\s*\)$")


@lru_cache(maxsize=8)
def _handle_types(table: MappingTable) -> dict[str, str]:
    """CUDA handle type -> the HIP pointer type the table maps it to (cudaTextureObject_t, CUtexObject, ...)."""
    return {r.cuda: r.hip for r in table if r.kind == "type" and r.hip in HIP_POINTER_HANDLES}


@register("integer_handles")
def integer_handles(ctx: Context) -> Iterator[Finding]:
    types = _handle_types(ctx.table)
    found = typed_names(ctx, frozenset(types))
    if found is None:
        return
    code, names = found
    hip_of = {name: hip for cuda, hip in types.items() for name in declared_names(code, frozenset((cuda,)))}
    done: set[int] = set()
    for m in name_uses(names).finditer(code):
        name = m.group().strip()
        start = m.end() - len(name)
        if start in done or not ctx.allowed(start):
            continue
        edits = _edits_for(code, start, m.end(), hip_of.get(name, "hipTextureObject_t"), names, done, name)
        if not edits:
            continue
        yield from edits
        yield Diagnostic(
            "HPY028",
            f"{name} is a texture/surface object, an integer in CUDA and a pointer in HIP: "
            f"integer arithmetic kept with {_INTEGER}",
            start,
            severity=Severity.INFO,
            subject=name,
        )


def _op(code: str, at: int) -> str:
    """The operator starting at ``at`` (two characters where it has them)."""
    two = code[at : at + 2]
    return two if two in _TWO else code[at : at + 1]


def _edits_for(
    code: str, start: int, end: int, hip: str, names: frozenset[str], done: set[int], name: str
) -> list[Edit]:
    operand = operand_start(code, start)
    if operand < 0:
        return []
    before, b_at = prev_token(code, operand)
    before = _op(code, b_at) if before and not before[0].isalnum() and before[0] not in "_$" else before
    after, after_at = next_token(code, end)
    after = _op(code, after_at) if after else after
    if after in (".", "->", "(", "[", "::", "++", "--") or before in ("++", "--"):
        return []

    def integer() -> list[Edit]:
        return [Edit(operand, operand, _INTEGER, "HPY028", Origin.TEXT, subject=name)]

    if before == ")" and _integer_type(_PAREN_TYPE, code[:operand].rstrip()):
        return integer()
    if before == "(" and after == ")" and _integer_type(_CAST_BEFORE, code[: b_at + 1]):
        return integer()
    if before == "[" and after == "]":
        return integer()
    if before in ("==", "!="):
        other, o_at = prev_token(code, b_at)
        alone = prev_token(code, o_at)[0] not in (".", "->", "::")
        return integer() if alone and _integer_operand(other, names) else []
    if after in ("==", "!="):
        other, o_at = next_token(code, after_at + 2)
        alone = _op(code, next_token(code, o_at + len(other))[1]) in _CHAIN_STOPS
        return integer() if alone and before in OPERAND_STARTS and _integer_operand(other, names) else []
    if after in ("%", "/", "^", "&", "|", "<<", ">>") and before in OPERAND_STARTS:
        return integer()
    if after in ("+", "-") and before in OPERAND_STARTS and before not in ("+", "-"):
        return _additive(code, operand, after_at, hip, names, done, (before, b_at), name)
    if before in ("+", "-") and binary_operator_before(code, operand):
        return integer()  # ``i + tex``: a right operand the left one's chain did not claim
    return []


def _integer_type(pattern: re.Pattern[str], text: str) -> bool:
    m = pattern.search(text)
    return m is not None and all(w in _INTEGER_WORDS for w in re.findall(r"\w+", m.group(1)))


def _integer_operand(token: str, names: frozenset[str]) -> bool:
    """Is the other side of a comparison, a lone token, an integer: a literal other than a null constant, or a name
    that is not a handle? (A member or a call may be a handle declared elsewhere: left alone.)"""
    if _NULLS.fullmatch(token) or token in names:
        return False
    return bool(token) and (token[0].isdigit() or token[0].isalpha() or token[0] == "_")


def _additive(
    code: str,
    operand: int,
    op_at: int,
    hip: str,
    names: frozenset[str],
    done: set[int],
    preceding: tuple[str, int],
    name: str,
) -> list[Edit]:
    """``tex + i ...`` from its first operand: the other handles of the chain and where it ends."""
    handles: list[int] = []
    at, depth, last_end = op_at, 0, op_at
    while True:
        token, t_at = next_token(code, at)
        op = _op(code, t_at) if token and not token[0].isalnum() and token[0] not in "_$" else token
        if depth == 0 and op in _CHAIN_STOPS and not (op in ("<", ">") and _template_cast(code, t_at)):
            break
        if op in ("(", "[", "{"):
            depth += 1
        elif op in (")", "]", "}"):
            depth -= 1
        elif op == "<" and _template_cast(code, t_at):
            close = code.find(">", t_at)
            at, last_end = (close + 1, close + 1) if close > 0 else (t_at + 1, t_at + 1)
            continue
        elif depth == 0 and op in names and prev_token(code, t_at)[0] in ("+", "-"):
            _, f_at = next_token(code, t_at + len(op))
            if _op(code, f_at) not in (".", "->", "[", "(", "::"):
                handles.append(t_at)
        at = t_at + len(op)
        last_end = at
    edits = [Edit(operand, operand, _INTEGER, "HPY028", Origin.TEXT, subject=name)]
    if handles:  # a distance between handles: an integer, as in CUDA
        for h in handles:
            done.add(h)
            edits.append(Edit(h, h, _INTEGER, "HPY028", Origin.TEXT, subject=name))
        return edits
    if not _handle_result(code, *preceding, names):
        return edits
    return [
        Edit(operand, operand, f"({hip})({_INTEGER}", "HPY028", Origin.TEXT, subject=name),
        Edit(last_end, last_end, ")", "HPY028", Origin.TEXT, subject=name),
    ]


def _template_cast(code: str, at: int) -> bool:
    word, _ = prev_token(code, at)
    return word.endswith("_cast")


def _handle_result(code: str, before: str, b_at: int, names: frozenset[str]) -> bool:
    """Is ``tex + i`` used as a handle here? An argument, a return value, a handle's initializer are; a subscript
    and the initializer of a name of another type are integers."""
    if before == "[":
        return False
    if before == "=":
        target, _ = prev_token(code, b_at)
        return target in names
    return before in ("(", ",", "return", "?", ":", "{")
