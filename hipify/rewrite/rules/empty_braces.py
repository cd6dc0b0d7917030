"""``x = {};`` on a half or bfloat16 variable names the type: ``x = __half2{};``.

CUDA's ``__half``/``__half2``/``__nv_bfloat16``/``__nv_bfloat162`` take an empty braced list in an
assignment (it resets the value to zero); HIP's counterparts have several assignment operators, so
``x = {}`` is ambiguous under hipcc and the file does not compile. The braced list becomes a
value-initialized object of the variable's type (the same zero), written with the HIP name (HPY021).

Only a statement that is an assignment to a plain name whose every declaration in the file has one
of these types is changed; a name declared with other types too is left as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model import Edit, Origin
from ..context import Context
from ..registry import Finding, register

# CUDA's 16-bit float types and their aliases, whose HIP counterparts make `x = {}` ambiguous.
HALF_TYPES = ("__half", "__half2", "half", "half2", "__nv_bfloat16", "__nv_bfloat162", "nv_bfloat16", "nv_bfloat162")
_ASSIGNMENT = re.compile(r"([A-Za-z_]\w*)[ \t]*=[ \t]*(\{\s*\})[ \t]*;")
_STATEMENT_START = frozenset(";{}):")
_STATEMENT_WORDS = frozenset(("else", "do"))
_WORD_BEFORE = re.compile(r"([A-Za-z_]\w*)\s*$")
# The tail of every _ASSIGNMENT match, led by a literal '=' the regex engine finds at C speed; _ASSIGNMENT
# itself is tried at every name character.
_EMPTY_TAIL = re.compile(r"=[ \t]*\{\s*\}[ \t]*;")


def _declared_types(masked: str, name: str) -> set[str]:
    """Every type the file declares ``name`` with, as ``TYPE name`` (``half2 a, name;`` too)."""
    declaration = re.compile(
        r"(?<![\w$.>])([A-Za-z_][\w:]*)\s+(?:[A-Za-z_]\w*\s*(?:=[^,;(){}]*)?,\s*)*" + re.escape(name) + r"\s*[;,=)\[]"
    )
    return {m.group(1) for m in declaration.finditer(masked) if m.group(1) not in ("return", "else", "case", "goto")}


@register("empty_braces")
def empty_braces(ctx: Context) -> Iterator[Finding]:
    masked = ctx.masked
    if "half" not in masked and "bfloat16" not in masked:  # str.find at C speed: most files stop here
        return
    if _EMPTY_TAIL.search(masked) is None:
        return
    types_of: dict[str, set[str]] = {}
    for m in _ASSIGNMENT.finditer(masked):
        before = masked[: m.start()].rstrip()
        word = _WORD_BEFORE.search(before[-20:])
        if before and before[-1] not in _STATEMENT_START and not (word and word.group(1) in _STATEMENT_WORDS):
            continue  # a declaration (half2 x = {};) or part of an expression
        name = m.group(1)
        if name not in types_of:
            types_of[name] = _declared_types(masked, name)
        types = types_of[name]
        if len(types) != 1 or next(iter(types)) not in HALF_TYPES or not ctx.allowed(m.start()):
            continue
        cuda_type = next(iter(types))
        row = ctx.table.lookup(cuda_type)
        target = ctx.decide(row).target if row is not None else ""
        braces = m.span(2)
        yield Edit(braces[0], braces[1], f"{target or cuda_type}{{}}", "HPY021", Origin.TEXT, subject=cuda_type)
