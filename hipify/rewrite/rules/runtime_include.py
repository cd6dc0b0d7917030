"""Lines the translation adds at the top: ``#include <hip/hip_runtime.h>`` where nvcc's implicit
cuda_runtime.h was relied on, and the macros HIP targets need defined before the HIP headers.

``.cu``/``.cuh`` files always get it; other files when they use CUDA runtime, driver or
device features: at the top where a host compiler reads the uses too, else inside the first
branch only a CUDA compiler reads (``#ifdef __CUDACC__``) that has them. Nothing is inserted
when the file (after include rewriting) already includes the HIP runtime. Placement follows
CONVENTIONS.md (see ``layout.insertion_anchor``).

Defines (``rewrite.requirements``) go before the first include of a translation unit's main
file, else right before the file's HIP runtime include, else in the block with the include
being inserted (always before it).

ROCm 7's HIP runtime header no longer includes ``<string.h>``, which CUDA's runtime header and ROCm 6.x's do: for a
7.x target, a file calling ``memcpy``, ``strlen``, ... on the host without including it gets ``#include <cstring>``
right after its HIP runtime include.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ...compat import HEADER_NAME
from ...knowledge.cxx import STRING_H_HEADERS, calls_string_h
from ...lexing.compiler_branches import host_skipped, inside
from ...lexing.facts import Region
from ...lexing.lines import line_end
from ...lexing.lines import line_start as physical_line_start
from ...model import Edit, Origin, Span
from ..context import Context
from ..index import DEVICE_MARKERS
from ..layout import Anchor, insertion_anchor, line_start, translation_unit_anchor, unconditional
from ..registry import Finding, register
from ..requirements import missing_defines
from .compat import compat_use
from .includes import HIP_RUNTIME_HEADER, include_plan

INCLUDE_LINE = f"#include <{HIP_RUNTIME_HEADER}>"
# The first ROCm whose hip_runtime.h no longer includes <string.h> (amd_detail headers of 7.0 on).
NO_STRING_H_SINCE = (7, 0)
CSTRING_LINE = "#include <cstring>"


def uses_cuda_features(ctx: Context, where: Callable[[Context, int], bool] | None = None) -> bool:
    """Does the file use CUDA device or runtime features (at an offset ``where`` accepts: by default, in code a
    host compiler reads too)?"""
    where = where or _read_by_host_compilers
    for launch in ctx.facts.launches:
        if launch.region is not Region.INACTIVE and where(ctx, launch.start):
            return True
    for ident in ctx.unresolved:
        if ident.name in DEVICE_MARKERS and ident.region is not Region.INACTIVE and where(ctx, ident.start):
            return True
    for ident, _ in ctx.uses_of(ctx.index.runtime_features):
        skipped = ident.region is Region.INACTIVE or ident.user_declared or ident.prev_token in (".", "->")
        if not skipped and where(ctx, ident.start):
            return True
    return False


def _read_by_host_compilers(ctx: Context, offset: int) -> bool:
    """Is ``offset`` outside the branches only a CUDA compiler reads (``#ifdef __CUDACC__``)? A use there needs the
    HIP runtime only where the branch is compiled: a C file built by gcc that includes the header does not."""
    return not inside(ctx.memo(_host_skipped), offset)


def _host_skipped(ctx: Context) -> list[Span]:
    return host_skipped(ctx.facts.directives)


def _cuda_compiler_branch(ctx: Context) -> Anchor | None:
    """Where a file whose CUDA uses all lie in branches only a CUDA compiler reads gets the HIP runtime include:
    inside the first of those branches that uses them, after its ``#if`` line (as nvcc's implicit include is there
    whenever the branch is compiled, and gcc never reads it)."""
    for span in ctx.memo(_host_skipped):
        if uses_cuda_features(ctx, _within(span)):
            return Anchor(span[0], True)
    return None


def _within(span: Span) -> Callable[[Context, int], bool]:
    def where(_: Context, offset: int) -> bool:
        return inside((span,), offset)

    return where


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
    branch = None
    if include and not ctx.is_cuda_source and not uses_cuda_features(ctx):
        include, branch = False, _cuda_compiler_branch(ctx)
    include = include or branch is not None
    guard = _project_guard(ctx) if include and branch is None and not ctx.is_cuda_source else ""
    used = compat_use(ctx)
    macros = missing_defines(ctx, used.defines)
    compat = used.include_needed
    first = plan.runtime_top
    include = include or first is not None
    guard = "" if first is not None else guard
    cstring = (include or runtime_line >= 0) and _calls_string_h(ctx)
    if not include and not macros and not compat and not cstring:
        return
    nl = ctx.newline
    include_at = first or branch or insertion_anchor(ctx.text, ctx.facts.directives, ctx.facts.comments)
    define_at = _define_anchor(ctx, runtime_line if beside_runtime else -1)
    if macros and define_at is not None and not (include and include_at.offset <= define_at.offset):
        # Before the first include of a translation unit's main file, or before the HIP runtime include.
        for macro in macros:
            text = f"{nl}#define {macro}" if define_at.after_line else f"#define {macro}{nl}"
            yield Edit(define_at.offset, define_at.offset, text, "HPY006", Origin.TEXT, subject=macro)
        macros = []
    compat_line = (f'#include "{ctx.source.project.compat_include}"', "HPY012", HEADER_NAME)
    cstring_line = (CSTRING_LINE, "HPY003", "cstring")
    after_runtime = []  # right after the file's own HIP runtime include
    if cstring and not include:
        after_runtime.append(cstring_line)
        cstring = False
    if compat and beside_runtime:
        after_runtime.append(compat_line)
        compat = False
    if after_runtime:
        end = line_end(ctx.text, runtime_line)
        for line, code, subject in after_runtime:
            yield Edit(end, end, nl + line, code, Origin.TEXT, subject=subject)
    if not include and not macros and not compat:
        return
    # The runtime include, the defines that must precede it and what follows it (<cstring>, the compatibility
    # header), as a block at the anchor.
    lines = [(f"#define {m}", "HPY006", m) for m in macros]
    if guard:
        lines.append((f"#if {guard}", "HPY003", HIP_RUNTIME_HEADER))
    if include:
        lines.append((INCLUDE_LINE, "HPY003", HIP_RUNTIME_HEADER))
        if cstring:
            lines.append(cstring_line)
    if compat:
        lines.append(compat_line)
    if guard:
        lines.append(("#endif", "HPY003", HIP_RUNTIME_HEADER))
    yield from _block(ctx, include_at, lines)


def _project_guard(ctx: Context) -> str:
    """The condition under which a header reads its CUDA code, where every use sits behind macros of the
    project's own that the header does not define itself (``ProjectFacts.feature_macros``): ``defined(A) ||
    defined(B)``; '' where the uses are read whatever is defined. A header shared with a CPU backend gets HIP's
    runtime only where the files defining those macros read it (gcc and g++ compile the others: HIP's headers
    are no C, nor on their include path); a compiler's or a vendor's macro (``__CUDACC__``) is no such option."""
    macros = ctx.source.project.feature_macros
    if not macros or ctx.source.project.tu_root:
        return ""
    if any(m.startswith("__") or m in ctx.table for m in macros):
        return ""
    defined = {
        d.argument.split("(")[0].split()[0] for d in ctx.facts.directives if d.keyword == "define" and d.argument
    }
    if defined.intersection(macros):
        return ""  # defined below the top: the include there would not see it
    return " || ".join(f"defined({m})" for m in macros)


def _calls_string_h(ctx: Context) -> bool:
    """Does the file call a <string.h> function it does not include, for a ROCm whose HIP runtime lacks it?"""
    if tuple(ctx.options.rocm_version) < NO_STRING_H_SINCE:
        return False
    if any(inc.header in STRING_H_HEADERS for inc in ctx.facts.includes):
        return False
    return calls_string_h(ctx.masked)


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
