"""A using-directive of a CUDA namespace never changes how HIP's own headers compile.

``using namespace cub;`` at file scope becomes ``using namespace hipcub;``. HIP's runtime headers (``hip/*``) keep
their implementation details at global scope (``amd_hip_fp8.h``'s ``namespace internal``) and name them unqualified:
read after the directive, such a name is ambiguous with the namespace's own (``hipcub::internal``), and a file that
compiled with CUDA's headers in that order stops in HIP's. CUDA's headers have no such names. So the HIP runtime
headers of the CUDA headers the file's translation units include (``ProjectFacts.unit_cuda_headers``) are included
right before the directive; their include guards make the later includes no-ops.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...lexing.lines import line_start
from ...model import Edit, Origin
from ..context import Context
from ..registry import Finding, register

HIP_RUNTIME_FAMILY = "hip/"  # HIP's own runtime headers, whose details live at global scope
_INCLUDED = re.compile(r"^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"]", re.MULTILINE)


@register("using_directives")
def using_directives(ctx: Context) -> Iterator[Finding]:
    headers = ctx.source.project.unit_cuda_headers
    if not headers:
        return
    wanted = _hip_runtime_headers(ctx, headers)
    if not wanted:
        return
    spaces = ctx.index.namespaces
    for ident in ctx.facts.identifiers:
        if ident.prev_token != "namespace" or ident.name not in spaces or ident.directive:
            continue
        at = line_start(ctx.text, ident.start)
        if not _is_using_directive(ctx.masked, at, ident.start) or _inside_a_body(ctx, ident.start):
            continue
        present = set(_INCLUDED.findall(ctx.text, 0, at))
        missing = [h for h in wanted if h not in present]
        if not missing or not ctx.allowed(ident.start, ident.region):
            continue
        nl = ctx.newline
        lines = "".join(f"#include <{h}>{nl}" for h in missing)
        yield Edit(at, at, lines, "HPY031", Origin.TEXT, subject=ident.name)


def _hip_runtime_headers(ctx: Context, headers: tuple[str, ...]) -> list[str]:
    """The ``hip/*`` headers the translation writes for ``headers`` (CUDA header names), in order."""
    out: dict[str, None] = {}
    for name in headers:
        row = ctx.table.lookup(name)
        if row is None or row.kind != "header":
            continue
        target = ctx.decide(row).target
        if target and target.startswith(HIP_RUNTIME_FAMILY):
            out[target] = None
    return list(out)


def _is_using_directive(masked: str, line: int, name_at: int) -> bool:
    """Is the line's text before the namespace's name ``using namespace``?"""
    return re.fullmatch(r"\s*using\s+namespace\s+", masked[line:name_at]) is not None


def _inside_a_body(ctx: Context, offset: int) -> bool:
    """Is ``offset`` inside a function or class body (a using-directive there reaches no later header)?"""
    decl = ctx.definition_at(offset)
    return decl is not None and decl.kind in ("function", "type")
