"""``#pragma weak`` in a CUDA source is kept out of the GPU pass (HPY024).

``#pragma weak name`` and ``#pragma weak alias = target`` make weak symbols and aliases of host functions (a library
that lets users interpose its entry points). nvcc hands pragmas of this kind to the host compiler only; hipcc's
clang compiles the file a second time for the GPU, where an alias to a function it emits for the host only is an
error. The pragmas (a run of them, adjacent lines) are wrapped in ``#if !defined(__HIP_DEVICE_COMPILE__)``, which
every host pass takes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...lexing.facts import Directive
from ...model import Edit, Origin
from ..context import Context
from ..registry import Finding, register

HOST_ONLY = "#if !defined(__HIP_DEVICE_COMPILE__)"
_WEAK = re.compile(r"weak\b")
_GUARD_BEFORE = re.compile(r"#[ \t]*if[ \t]+!defined\(__HIP_DEVICE_COMPILE__\)[ \t]*\r?\n\Z")


@register("host_pragmas")
def host_pragmas(ctx: Context) -> Iterator[Finding]:
    if "weak" not in ctx.text or not (ctx.is_cuda_source or ctx.source.path.lower().endswith(".hip")):
        return
    text, newline = ctx.text, ctx.newline
    for first, last in _runs([d for d in ctx.facts.directives if _is_weak(d)], text):
        line_start = text.rfind("\n", 0, first.start) + 1
        if not ctx.allowed(first.start) or _GUARD_BEFORE.search(text, 0, line_start):
            continue
        yield Edit(line_start, line_start, HOST_ONLY + newline, "HPY024", Origin.TEXT, subject="#pragma weak")
        yield Edit(last.end, last.end, newline + "#endif", "HPY024", Origin.TEXT, subject="#pragma weak")


def _is_weak(directive: Directive) -> bool:
    return directive.keyword == "pragma" and _WEAK.match(directive.argument) is not None


def _runs(directives: list[Directive], text: str) -> Iterator[tuple[Directive, Directive]]:
    """(first, last) of each run of directives on adjacent lines."""
    run: list[Directive] = []
    for directive in directives:
        if run and text[run[-1].end : directive.start].strip(" \t\r") != "\n":
            yield run[0], run[-1]
            run = []
        run.append(directive)
    if run:
        yield run[0], run[-1]
