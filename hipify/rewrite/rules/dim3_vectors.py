"""``dim3`` made from a ``uint3`` (HPY026).

CUDA's ``dim3`` has a constructor from ``uint3`` (``dim3 grid = make_uint3(n, 1, 1);``, ``grid = make_uint3(...)``,
``k<<<make_uint3(n, 1, 1), 256>>>``); HIP's takes the three components only, so none of these compiles. Where the
``uint3`` is built on the spot by ``make_uint3(x, y, z)`` and goes straight into a ``dim3`` (a launch's grid or block,
the initializer of or an assignment to a name the file declares ``dim3``), it becomes ``dim3(x, y, z)``: the same
components, the same value. A name the file also declares with another type is left alone, as is a ``uint3``
variable (its components are not at hand in the text).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...lexing.text_facts import prev_token
from ...model import Diagnostic, Edit, Origin, Severity
from ..context import Context
from ..registry import Finding, register
from .device_pointers import code_only, declared_names

_MAKE = "make_uint3"
_CALL = re.compile(r"(?<![\w$.>:])make_uint3\s*\(")


@register("dim3_vectors")
def dim3_vectors(ctx: Context) -> Iterator[Finding]:
    if _MAKE not in ctx.text:
        return
    code = code_only(ctx)
    starts = {m.start() for m in _CALL.finditer(code)}
    if not starts:
        return
    names = declared_names(code, frozenset(("dim3",))) if "dim3" in code else frozenset()
    for start in sorted(starts):
        if not ctx.allowed(start):
            continue
        if _launch_dimension(code, start) or _into_dim3(code, start, names):
            yield Edit(start, start + len(_MAKE), "dim3", "HPY026", Origin.TEXT, subject=_MAKE)
            yield Diagnostic(
                "HPY026",
                "HIP's dim3 has no constructor from uint3: make_uint3(x, y, z) written as dim3(x, y, z)",
                start,
                severity=Severity.INFO,
                subject=_MAKE,
            )


def _launch_dimension(code: str, start: int) -> bool:
    """Is ``start`` the first or second argument of a launch configuration (``k<<<make_uint3(...), ...>>>``)?"""
    opened = code.rfind("<<<", 0, start)
    if opened < 0:
        return False
    between = code[opened + 3 : start]
    if ">>>" in between or ";" in between:
        return False
    depth = commas = 0
    for c in between:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            commas += 1
    return depth == 0 and commas <= 1 and not between[between.rfind(",") + 1 :].strip()


def _into_dim3(code: str, start: int, names: frozenset[str]) -> bool:
    """Is the ``make_uint3(...)`` at ``start`` the initializer of, or assigned to, a name declared ``dim3``:
    ``dim3 g = make_uint3(...)``, ``dim3 g(make_uint3(...))``, ``g = make_uint3(...)``, ``dim3 g{make_uint3(...)}``?"""
    before, at = prev_token(code, start)
    if before not in ("=", "(", "{"):
        return False
    name, name_at = prev_token(code, at)
    if name not in names:
        return False
    if before == "=":
        return True
    # ``dim3 g(make_uint3(...))``: a declaration, the type right before the name
    kind, _ = prev_token(code, name_at)
    return kind == "dim3"
