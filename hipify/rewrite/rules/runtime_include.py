"""Lines the translation adds at the top: ``#include <hip/hip_runtime.h>`` where nvcc's implicit
cuda_runtime.h was relied on, and the macros HIP targets need defined before the HIP headers.

``.cu``/``.cuh`` files always get it; other files when they use CUDA runtime, driver or
device features. Nothing is inserted when the file (after include rewriting) already
includes the HIP runtime. Placement follows CONVENTIONS.md (see ``layout.insertion_anchor``).

Defines (``rewrite.requirements``) go before the first include of a translation unit's main
file, else right before the file's HIP runtime include, else in the block with the include
being inserted (always before it).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...compat import HEADER_NAME
from ...lexing.facts import Region
from ...lexing.lines import line_end
from ...lexing.lines import line_start as physical_line_start
from ...model import Edit, Origin
from ..context import Context
from ..index import DEVICE_MARKERS
from ..layout import Anchor, insertion_anchor, line_start, translation_unit_anchor, unconditional
from ..registry import Finding, register
from ..requirements import missing_defines
from .compat import compat_use
from .includes import HIP_RUNTIME_HEADER, include_plan

INCLUDE_LINE = f"#include <{HIP_RUNTIME_HEADER}>"


def uses_cuda_features(ctx: Context) -> bool:
    for launch in ctx.facts.launches:
        if launch.region is not Region.INACTIVE:
            return True
    for ident in ctx.unresolved:
        if ident.name in DEVICE_MARKERS and ident.region is not Region.INACTIVE:
            return True
    for ident, _ in ctx.uses_of(ctx.index.runtime_features):
        if not (ident.region is Region.INACTIVE or ident.user_declared or ident.prev_token in (".", "->")):
            return True
    return False


@register("runtime_include")
def runtime_include(ctx: Context) -> Iterator[Finding]:
    plan = include_plan(ctx)
    runtime_line = plan.runtime_line
    # Beside the file's own HIP runtime include only when it is compiled whatever the macros: one inside
    # ``#ifdef USE_ROCM`` (a port's own branch) may be skipped.
    beside_runtime = runtime_line >= 0 and unconditional(
        ctx.text, ctx.facts.directives, ctx.facts.comments, runtime_line
    )
    include = runtime_line < 0 and ctx.options.insert_runtime_include and not ctx.source.project.hip_prelude
    include = include and (ctx.is_cuda_source or uses_cuda_features(ctx))
    used = compat_use(ctx)
    macros = missing_defines(ctx, used.defines)
    compat = used.include_needed
    first = plan.runtime_top
    include = include or first is not None
    if not include and not macros and not compat:
        return
    nl = ctx.newline
    include_at = first or insertion_anchor(ctx.text, ctx.facts.directives, ctx.facts.comments)
    define_at = _define_anchor(ctx, runtime_line if beside_runtime else -1)
    if macros and define_at is not None and not (include and include_at.offset <= define_at.offset):
        # Before the first include of a translation unit's main file, or before the HIP runtime include.
        for macro in macros:
            text = f"{nl}#define {macro}" if define_at.after_line else f"#define {macro}{nl}"
            yield Edit(define_at.offset, define_at.offset, text, "HPY006", Origin.TEXT, subject=macro)
        macros = []
    compat_line = (f'#include "{ctx.source.project.compat_include}"', "HPY012", HEADER_NAME)
    if compat and beside_runtime:  # right after the file's own HIP runtime include
        end = line_end(ctx.text, runtime_line)
        yield Edit(end, end, nl + compat_line[0], "HPY012", Origin.TEXT, subject=HEADER_NAME)
        compat = False
    if not include and not macros and not compat:
        return
    # The runtime include, the defines that must precede it and the compatibility header that
    # follows it, as a block at the anchor.
    lines = [(f"#define {m}", "HPY006", m) for m in macros]
    if include:
        lines.append((INCLUDE_LINE, "HPY003", HIP_RUNTIME_HEADER))
    if compat:
        lines.append(compat_line)
    yield from _block(ctx, include_at, lines)


def _define_anchor(ctx: Context, runtime_line: int) -> Anchor | None:
    """Where the defines go when they are not part of an inserted block (None: with the block)."""
    if ctx.source.project.tu_root:
        anchor = translation_unit_anchor(ctx.text, ctx.facts.directives, ctx.facts.comments)
        if anchor is not None:
            return anchor
    return Anchor(line_start(ctx.text, ctx.facts.comments, runtime_line), False) if runtime_line >= 0 else None


def _block(ctx: Context, anchor: Anchor, lines: list[tuple[str, str, str]]) -> Iterator[Edit]:
    """One edit per inserted line; the first carries the blank line before, the last the one after."""
    nl = ctx.newline
    if anchor.after_line:
        lead, trail = nl + nl, ""
    elif anchor.at_top:
        lead, trail = "", nl + nl
    else:
        previous_blank = anchor.offset == 0 or _line_before_is_blank(ctx.text, anchor.offset)
        lead, trail = ("" if previous_blank else nl), nl
    for i, (line, code, subject) in enumerate(lines):
        before = lead if i == 0 else ""
        after = trail if i == len(lines) - 1 else nl
        yield Edit(anchor.offset, anchor.offset, before + line + after, code, Origin.TEXT, subject=subject)


def _line_before_is_blank(text: str, line_start: int) -> bool:
    end = line_start - 1  # the CR or LF ending the previous line
    if end > 0 and text[end] == "\n" and text[end - 1] == "\r":
        end -= 1
    return not text[physical_line_start(text, end) : end].strip("\ufeff \t\f\v")
