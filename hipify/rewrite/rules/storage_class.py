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

_REGISTER = re.compile(r"register(?![\w$])[ \t]*")
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")


@register("storage_class")
def storage_class(ctx: Context) -> Iterator[Finding]:
    if "register" not in ctx.text or ctx.source.path.lower().endswith(".c"):
        return
    masked = ctx.masked  # not in comments, strings or directive text
    # str.find, not a regex scan of the file: 'register' is mostly inside cudaHostUnregister.
    at = masked.find("register")
    while at >= 0:
        m = _REGISTER.match(masked, at)
        starts_word = m is not None and (at == 0 or masked[at - 1] not in _WORD)
        if m is not None and starts_word and ctx.allowed(at) and not ctx.in_directive(at):
            yield Edit(m.start(), m.end(), "", "HPY013", Origin.TEXT, subject="register")
        at = masked.find("register", at + 8)
