"""Arithmetic on driver-API device pointers (HPY018).

CUDA's ``CUdeviceptr`` is an integer (``unsigned long long``): ``dptr + offset`` is a byte address, ``a - b`` a
byte distance, ``dptr % 256`` an alignment test. HIP's ``hipDeviceptr_t`` is ``void*``, on which none of that
compiles. The translation keeps the meaning at each such expression instead of changing the type (a compatibility
class convertible to both an integer and ``void*`` makes ``p == 0`` and ``if (p)`` ambiguous, and ``&p`` no longer
fits ``hipMalloc``'s ``void**``):

- an operand of ``+``/``-``: ``(char*)dptr``, whose arithmetic counts bytes, as CUDA's integer does, and which
  converts to ``void*`` wherever the result goes (``a - b`` of two such is the same byte count);
- the target of ``+=``/``-=``: ``(char*&)dptr`` (the variable itself, seen as a byte pointer);
- the left operand of ``%``, ``&``, ``|``, ``^``, ``/``, ``>>``, ``<<``: ``(unsigned long long)dptr``, CUDA's own type;
- an operand of ``<``, ``>``, ``<=``, ``>=`` whose other side is a number (``dptr > 0``: a pointer is not ordered
  against an integer): ``(unsigned long long)dptr``;
- every operand of the initializer of a variable of an integer type (``size_t off = dptr - base;``,
  ``uint64_t a = dptr;``): ``(unsigned long long)dptr``, so the value is CUDA's integer.

A pointer to device pointers (``CUdeviceptr* out``, an output parameter) is one too where it is dereferenced:
``*out + offset`` and ``out[i] + offset`` get the casts above (``(char*)*out + offset``).

Which names are such pointers is read from the file's declarations (``CUdeviceptr a, b;``, parameters, struct
members), and so are functions returning one (``CUdeviceptr base() const``): a call of such a function, a member
function's through ``.``/``->`` too, is an operand like a variable (``(char*)pool.base() + off``). A function
whose return type is deduced (``auto base() const``) does not count as another declaration of the name. A name
the file also declares with another type is left alone (the text cannot say which one a use means), and so is
an operand in a position where a cast would bind differently (``*p + 1``, ``-p``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ...knowledge.cxx import CPP_KEYWORDS
from ...knowledge.table import MappingTable
from ...lexing.text_facts import brackets_back, next_token, prev_token, whole_word
from ...model import Diagnostic, Edit, Origin, Severity
from ..context import Context
from ..registry import Finding, register

# HIP's driver-API device pointer type: ``void*`` (hip/driver_types.h).
HIP_DEVICEPTR = "hipDeviceptr_t"

_BYTES = "(char*)"
_BYTES_LVALUE = "(char*&)"
_INTEGER = "(unsigned long long)"
# Tokens after which an operand starts an expression of its own (a cast put before it covers just that operand).
OPERAND_STARTS = frozenset(
    ("(", ",", "=", "{", ";", "?", ":", "[", "return", "+", "-", "==", "!=", "<", ">", "<=", ">=", "&&", "||",
     "+=", "-=", "|", "^")
)  # fmt: skip
# Tokens after which an expression statement starts (``a += n;``).
_STATEMENT_STARTS = frozenset((";", "{", "}", ")", ":", "else", ""))
# Words before a name that make it an expression, not a declaration of a variable of that word's type.
_NOT_TYPES = frozenset(("return", "case", "else", "do", "throw", "co_return", "co_yield", "sizeof", "delete", "goto"))
_WORD = re.compile(r"[A-Za-z_$][\w$]*")


@lru_cache(maxsize=8)
def _pointer_types(table: MappingTable) -> frozenset[str]:
    """The CUDA types the table maps to HIP's device pointer (CUdeviceptr, CUdeviceptr_v2, ...)."""
    return frozenset(r.cuda for r in table if r.kind == "type" and r.hip == HIP_DEVICEPTR)


@register("device_pointers")
def device_pointers(ctx: Context) -> Iterator[Finding]:
    types = _pointer_types(ctx.table)
    if not types or not any(t in ctx.masked for t in types):
        return
    code = code_only(ctx)
    values = declared_names(code, types)
    pointers = pointers_to(code, types) - values
    uses: list[tuple[int, int, int, str]] = []  # (operand start, name start, operand end, name)
    if values:
        functions = returning_functions(code, types) & values
        for m in name_uses(values).finditer(code):
            start = m.start() + len(m.group()) - len(m.group().lstrip())
            name, end = m.group().strip(), m.end()
            if name in functions:
                end = _call_end(code, end)
                if end < 0:
                    continue  # the function named, not called (its address, its declaration's name)
            uses.append((operand_start(code, start), start, end, name))
    uses.extend(_dereferences(code, pointers))
    for operand, start, end, name in sorted(uses):
        if operand < 0 or not ctx.allowed(start):
            continue
        edit = _edit_for(code, operand, end, name)
        if edit is not None:
            yield edit
            yield Diagnostic(
                "HPY018",
                f"{name} is a CUdeviceptr, an integer in CUDA and void* in HIP: "
                f"its value kept as CUDA's with {edit.replacement.strip()}",
                start,
                severity=Severity.INFO,
                subject=name,
            )


def pointers_to(code: str, types: frozenset[str]) -> frozenset[str]:
    """Names declared as pointers to a device pointer (``CUdeviceptr* out``), less those the file also declares
    with another type."""
    found: set[str] = set()
    for t in types:
        for m in re.finditer(whole_word(t) + r"\s*\*\s*([A-Za-z_]\w*)(?=\s*[,;=)\[])", code):
            found.add(m.group(1))
    found -= CPP_KEYWORDS
    if not found:
        return frozenset()
    other: set[str] = set()
    for m in re.finditer(r"(?<![\w$])(?:" + "|".join(map(re.escape, sorted(found))) + r")(?![\w$])", code):
        before, b_at = prev_token(code, m.start())
        if before == "*":
            before, b_at = prev_token(code, b_at)
            if before in types:
                continue  # CUdeviceptr* out
        if _declared_otherwise(code, m.start(), types):
            other.add(m.group())
    return frozenset(found - other)


def returning_functions(code: str, types: frozenset[str]) -> frozenset[str]:
    """Names declared as functions returning one of ``types`` (``CUdeviceptr base() const``)."""
    found: set[str] = set()
    for t in types:
        for m in re.finditer(whole_word(t) + r"\s+(?:const\s+)?([A-Za-z_]\w*)\s*\(", code):
            found.add(m.group(1))
    return frozenset(found - CPP_KEYWORDS)


def _call_end(code: str, end: int) -> int:
    """Just after the argument list of a call whose name ends at ``end``; -1 when no ``(`` follows."""
    after, at = next_token(code, end)
    if after != "(":
        return -1
    closer = _closing(code, at)
    return closer + 1 if closer > 0 else -1


def _dereferences(code: str, names: frozenset[str]) -> Iterator[tuple[int, int, int, str]]:
    """``*out`` and ``out[i]`` of pointers to device pointers: (operand start, name start, operand end, name)."""
    if not names:
        return
    alternatives = "|".join(sorted(map(re.escape, names)))
    for m in re.finditer(rf"(?<![\w$.>:])({alternatives})(?![\w$])", code):
        start, end = m.start(), m.end()
        before, b_at = prev_token(code, start)
        after, a_at = next_token(code, end)
        if before == "*" and not binary_operator_before(code, start):
            yield b_at, start, end, m.group(1)
        elif after == "[":
            closer = _closing(code, a_at)
            if closer > 0:
                yield start, start, closer + 1, m.group(1)


def _closing(code: str, at: int) -> int:
    depth = 0
    for i in range(at, len(code)):
        if code[i] in "([{":
            depth += 1
        elif code[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def typed_names(ctx: Context, types: frozenset[str]) -> tuple[str, frozenset[str]] | None:
    """The file's code (:func:`code_only`) and the names it declares with one of ``types``; None when none."""
    if not types or not any(t in ctx.masked for t in types):
        return None
    code = code_only(ctx)
    names = declared_names(code, types)
    return (code, names) if names else None


def name_uses(names: frozenset[str]) -> re.Pattern[str]:
    """Uses of ``names`` as a whole operand or as a member (``s.ptr``, ``p->ptr``: the name after the spaces)."""
    alternatives = "|".join(sorted(map(re.escape, names)))
    return re.compile(rf"(?<![\w$.>:])(?:{alternatives})(?![\w$])|(?<=[.>])\s*(?:{alternatives})(?![\w$])")


def code_only(ctx: Context) -> str:
    """The masked text with directive lines blanked: macros' bodies are left alone."""
    chars = list(ctx.masked)
    for start, end in ctx.code_directives:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def declared_names(code: str, types: frozenset[str]) -> frozenset[str]:
    """Names the file declares with one of ``types`` (device pointers; ``dim3`` for rules/dim3_vectors.py), less
    those it also declares with another type."""
    declared: set[str] = set()
    for t in types:
        for m in re.finditer(whole_word(t), code):
            declared.update(_declarators(code, m.end()))
    declared -= CPP_KEYWORDS
    if not declared:
        return frozenset()
    other: set[str] = set()
    for m in re.finditer(r"(?<![\w$])(?:" + "|".join(map(re.escape, sorted(declared))) + r")(?![\w$])", code):
        if _declared_otherwise(code, m.start(), types):
            other.add(m.group())
    return frozenset(declared - other)


def _declarators(code: str, at: int) -> Iterator[str]:
    """The names declared by ``TYPE a, b = x, c;`` from just after TYPE (``const`` and references allowed, pointers
    are not device pointers)."""
    while True:
        token, where = next_token(code, at)
        while token in ("const", "volatile", "&", "__restrict__"):
            token, where = next_token(code, where + len(token))
        if not _WORD.fullmatch(token) or token in CPP_KEYWORDS:
            return
        yield token
        after, after_at = next_token(code, where + len(token))
        if after == "=":
            after, after_at = _skip_initializer(code, after_at + 1)
        if after != ",":
            return
        at = after_at + 1
        following, f_at = next_token(code, at)
        if not _WORD.fullmatch(following):
            return
        then, _ = next_token(code, f_at + len(following))
        if then not in (",", ";", "=", ")"):
            return  # ``CUdeviceptr a, size_t n``: a parameter list goes on with another type


def _skip_initializer(code: str, at: int) -> tuple[str, int]:
    """The first ``,`` or ``;`` (or closer) after an initializer, outside brackets."""
    depth = 0
    i = at
    while i < len(code):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return c, i
            depth -= 1
        elif c in ",;" and depth == 0:
            return c, i
        i += 1
    return "", len(code)


def _declared_otherwise(code: str, at: int, types: frozenset[str]) -> bool:
    """Is the name at ``at`` declared here with a type that is not a device pointer (``int a``, ``float* a``)?"""
    before, b_at = prev_token(code, at)
    while before in ("const", "volatile", "__restrict__"):
        before, b_at = prev_token(code, b_at)
    if before in ("*", "&"):  # (not ``&&``: ``a && p`` is an expression far more often than an rvalue reference)
        word, _ = prev_token(code, b_at)
        return bool(_WORD.fullmatch(word)) and word not in _NOT_TYPES
    if before == ">":
        return True  # ``std::vector<int> a``: a template type
    if before == "auto" and next_token(code, at + len(_WORD.match(code, at).group()))[0] == "(":  # type: ignore[union-attr]
        return False  # ``auto base() const``: a return type deduced from the body
    return bool(_WORD.fullmatch(before)) and before not in _NOT_TYPES and before not in types


def _edit_for(code: str, operand: int, end: int, name: str) -> Edit | None:
    before, b_at = prev_token(code, operand)
    after, after_at = next_token(code, end)
    second = code[after_at + 1 : after_at + 2] if after else ""
    if after in (".", "->", "(", "[", "::") or before in ("++", "--") or (after in ("+", "-") and second == after):
        return None  # not the whole operand, or an increment
    if after in ("+", "-") and second == "=":
        cast = _BYTES_LVALUE if before in _STATEMENT_STARTS else ""
    elif before not in OPERAND_STARTS or (before in ("+", "-") and not binary_operator_before(code, operand)):
        return None
    elif _integer_initializer(code, operand) or _ordered_against_number(code, before, b_at, after, after_at, second):
        cast = _INTEGER
    elif after in ("+", "-") or before in ("+", "-"):
        cast = _BYTES
    elif second != "=" and (
        after in ("%", "/", "^")
        or (after in ("&", "|") and second != after)
        or (after in ("<", ">") and second == after)
    ):
        cast = _INTEGER
    else:
        cast = ""
    return Edit(operand, operand, cast, "HPY018", Origin.TEXT, subject=name) if cast else None


_INTEGER_TYPES = frozenset(
    ("size_t", "ssize_t", "ptrdiff_t", "uintptr_t", "intptr_t", "uint64_t", "int64_t", "uint32_t", "int32_t",
     "unsigned", "long", "int", "short", "char", "uint", "ulong")
)  # fmt: skip
_NUMBER = re.compile(r"(?:0[xX][0-9a-fA-F']+|\d[\d']*)[uUlL]*")


def _ordered_against_number(code: str, before: str, b_at: int, after: str, after_at: int, second: str) -> bool:
    """``dptr > 0``, ``4096 <= dptr``: an ordering against a number, which a pointer does not take."""
    if after in ("<", ">") and second != after:
        other, _ = next_token(code, after_at + (2 if second == "=" else 1))
        return bool(_NUMBER.fullmatch(other))
    if before in ("<", ">", "<=", ">="):
        other, _ = prev_token(code, b_at)
        return bool(_NUMBER.fullmatch(other))
    return False


def _integer_initializer(code: str, operand: int) -> bool:
    """Is ``operand`` in the initializer of a variable of an integer type (``size_t off = a - b;``), outside any
    call or brackets?"""
    token, at = prev_token(code, operand)
    while token and token != "=":
        if token in (";", "{", "}", "(", "[", ",", "return") or token.endswith("="):
            return False
        if token in (")", "]"):
            opener = brackets_back(code, at)
            if opener < 0:
                return False
            at = opener
        token, at = prev_token(code, at)
    if token != "=":
        return False
    variable, v_at = prev_token(code, at)
    if not _WORD.fullmatch(variable):
        return False
    kind, _ = prev_token(code, v_at)
    return kind in _INTEGER_TYPES


def operand_start(code: str, start: int) -> int:
    """Where the postfix expression ending in the name at ``start`` begins (``s.ptr``, ``bufs[i]->ptr``)."""
    at = start
    while True:
        before, b_at = prev_token(code, at)
        if before not in (".", "->"):
            return at
        owner, o_at = prev_token(code, b_at)
        while owner in ("]", ")"):
            opener = brackets_back(code, o_at)
            if opener < 0:
                return -1
            owner, o_at = prev_token(code, opener)
        if not _WORD.fullmatch(owner):
            return -1
        at = o_at


def binary_operator_before(code: str, operand: int) -> bool:
    """Is the ``+``/``-`` before ``operand`` a binary operator (an operand ends before it)?"""
    _, at = prev_token(code, operand)
    left, _ = prev_token(code, at)
    return bool(left) and (left[-1].isalnum() or left[-1] in "_$)]")
