"""``register`` goes: C++17 removed the storage class, and hipcc compiles C++17 strictly.

nvcc accepts ``register int x;`` with a warning; clang makes it an error in C++17 (hipcc's
default). The keyword has had no meaning for decades: it is deleted (HPY013), with the blanks
after it. C sources (``.c``) keep it, as C still has it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model import Edit, Origin
from ..context import Context
from ..registry import Finding, register

_REGISTER = re.compile(r"(?<![\w$])register(?![\w$])[ \t]*")


@register("storage_class")
def storage_class(ctx: Context) -> Iterator[Finding]:
    if "register" not in ctx.text or ctx.source.path.lower().endswith(".c"):
        return  # (a substring test first: a regex search of every file would cost a tenth of the engine)
    for m in _REGISTER.finditer(ctx.masked):  # not in comments, strings or directive text
        if ctx.allowed(m.start()) and not _in_directive(ctx, m.start()):
            yield Edit(m.start(), m.end(), "", "HPY013", Origin.TEXT, subject="register")


def _in_directive(ctx: Context, offset: int) -> bool:
    return any(d.start <= offset < d.end for d in ctx.facts.directives)
