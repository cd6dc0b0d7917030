"""Insert ``#include <hip/hip_runtime.h>`` where nvcc's implicit cuda_runtime.h was relied on.

``.cu``/``.cuh`` files always get it; other files when they use CUDA runtime, driver or
device features. Nothing is inserted when the file (after include rewriting) already
includes the HIP runtime. Placement follows CONVENTIONS.md (see ``layout.insertion_anchor``).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...facts import Region
from ...model import Edit, Origin
from ..context import Context
from ..index import DEVICE_MARKERS, RUNTIME_APIS
from ..layout import insertion_anchor
from ..registry import Finding, register
from .includes import HIP_RUNTIME_HEADER, include_plan
from .warp_sync import missing_defines

INCLUDE_LINE = f"#include <{HIP_RUNTIME_HEADER}>"


def uses_cuda_features(ctx: Context) -> bool:
    for launch in ctx.facts.launches:
        if launch.region is not Region.INACTIVE:
            return True
    for ident in ctx.unresolved:
        if ident.name in DEVICE_MARKERS and ident.region is not Region.INACTIVE:
            return True
    for ident, row in ctx.resolved:
        if ident.region is Region.INACTIVE or ident.user_declared or ident.prev_token in (".", "->"):
            continue
        if row.api not in RUNTIME_APIS or row.kind in ("header", "field"):
            continue
        # A renamed API, or a device built-in (__shfl_sync); not identity rows such as min()
        # that plain C++ also has.
        if row.hip != row.cuda or row.cuda.startswith("__"):
            return True
    return False


@register("runtime_include")
def runtime_include(ctx: Context) -> Iterator[Finding]:
    if include_plan(ctx).runtime_line >= 0:
        return
    wanted = ctx.options.insert_runtime_include and (ctx.is_cuda_source or uses_cuda_features(ctx))
    macros = missing_defines(ctx)
    if not wanted and not macros:
        return
    anchor = insertion_anchor(ctx.text, ctx.facts.directives, ctx.facts.comments)
    nl = ctx.newline
    if anchor.after_line:
        lead, trail = nl + nl, ""
    elif anchor.at_top:
        lead, trail = "", nl + nl
    else:
        previous_blank = anchor.offset == 0 or _line_before_is_blank(ctx.text, anchor.offset)
        lead, trail = ("" if previous_blank else nl), nl
    # One edit per inserted line; the first carries the lead, the last the trail.
    lines = [(f"#define {m}", "HPY006", m) for m in macros]
    if wanted:
        lines.append((INCLUDE_LINE, "HPY003", HIP_RUNTIME_HEADER))
    for i, (line, code, subject) in enumerate(lines):
        before = lead if i == 0 else ""
        after = trail if i == len(lines) - 1 else nl
        yield Edit(anchor.offset, anchor.offset, before + line + after, code, Origin.TEXT, subject=subject)


def _line_before_is_blank(text: str, line_start: int) -> bool:
    end = line_start - 1  # the '\n' ending the previous line
    if end > 0 and text[end - 1] == "\r":
        end -= 1
    return not text[text.rfind("\n", 0, end) + 1 : end].strip("\ufeff \t\f\v")
