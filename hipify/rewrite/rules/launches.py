"""``k<<<g, b, s, st>>>(args)`` -> ``hipLaunchKernelGGL(k, dim3(g), dim3(b), s, st, args)``; a launch kept in
``<<<>>>`` form and written with blanks inside its chevrons (``k << < g, b >> > (x)``, which nvcc accepts and clang
does not) is respelled ``<<<``/``>>>`` (HPY023).

Only with ``--hip-kernel-execution-syntax``; by default the chevrons are kept (HIP
compiles them). The rewrite is made of edits in the *gaps* between the kernel, config and
argument spans, so identifier renames inside those spans never overlap it and the
argument text is copied verbatim. A comment in a gap (between the kernel name and ``<<<``,
between ``>>>`` and ``(``) stays where it is: only the punctuation around it is rewritten.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence

from ...lexing.facts import Launch
from ...lexing.text_facts import prev_token
from ...model import Diagnostic, Edit, Origin, Severity, Span
from ..context import Context
from ..neighbours import joins_neighbours
from ..registry import Finding, register

LAUNCHER = "hipLaunchKernelGGL"
SPACED_CHEVRONS = "HPY023"
TEMPLATE_WRAPPER = "HIP_KERNEL_NAME"
_MEMBER_ACCESS = ("->", ".")
_WORD = re.compile(r"[^\W\d]\w*")


@register("launches")
def launches(ctx: Context) -> Iterator[Finding]:
    for launch in ctx.facts.launches:
        if not ctx.allowed(launch.start, launch.region) or ctx.suppression.covers(launch.end - 1):
            continue
        findings = list(_as_call(ctx, launch)) if ctx.options.hip_kernel_syntax else []
        yield from findings
        if not any(isinstance(f, Edit) for f in findings):  # kept in <<<>>> form: spelled as clang reads it
            yield from _chevrons_spelled(ctx, launch)


def rewritten_as_calls(ctx: Context) -> frozenset[int]:
    """Where the launches this rule rewrites as hipLaunchKernelGGL calls start (where the launcher's name will be)."""
    return ctx.memo(_rewritten_as_calls)


def _rewritten_as_calls(ctx: Context) -> frozenset[int]:
    if not ctx.options.hip_kernel_syntax:
        return frozenset()
    return frozenset(
        launch.start
        for launch in ctx.facts.launches
        if ctx.allowed(launch.start, launch.region)
        and not ctx.suppression.covers(launch.end - 1)
        and any(isinstance(f, Edit) for f in _as_call(ctx, launch))
    )


def _as_call(ctx: Context, launch: Launch) -> Iterator[Finding]:
    """``--hip-kernel-execution-syntax``: the launch as a hipLaunchKernelGGL call, where it can be one."""
    if not 2 <= len(launch.config) <= 4:
        return
    if _member_access(ctx.masked, launch):
        return  # ``p->k<<<...>>>``: the kernel is not a name hipLaunchKernelGGL can take; HIP compiles <<<>>>
    if _kept_qualifier(ctx, launch):
        return  # ``x CUBLASAPI::k<<<...>>>``: inside the call the kept macro's neighbours change, and its fate
    if _ends_in_line_comment(ctx.text, launch):
        yield Diagnostic(
            "HPY109",
            "kernel launch left in <<<>>> form: a // comment inside it would swallow the rewritten text",
            offset=launch.start,
            severity=Severity.INFO,
        )
        return
    yield from launch_edits(ctx.text, launch, ctx.facts.comments)


def _chevrons_spelled(ctx: Context, launch: Launch) -> Iterator[Edit]:
    """``k << < g, b >> > (x)``: nvcc reads blanks inside the chevrons, clang reads a shift and a comparison."""
    subject = ctx.text[launch.kernel[0] : launch.kernel[1]]
    for (start, end), token in ((launch.chevron_open, "<<<"), (launch.chevron_close, ">>>")):
        if 0 <= start < end and ctx.text[start:end] != token:
            yield Edit(start, end, token, SPACED_CHEVRONS, Origin.TEXT, subject)


def _member_access(masked: str, launch: Launch) -> bool:
    """Is the kernel reached through an object (``p->k``, ``s.k``), before or inside the kernel expression?"""
    start, end = launch.kernel
    kernel = masked[start:end]
    return prev_token(masked, start)[0] in _MEMBER_ACCESS or "->" in kernel or "." in kernel


def _kept_qualifier(ctx: Context, launch: Launch) -> bool:
    """Does a calling-convention macro qualify the kernel (``x CUBLASAPI::k``) where the renames rule keeps it? Moved
    into hipLaunchKernelGGL( it would lose the word before it, and the next translation would delete it."""
    start, end = launch.kernel
    word = _WORD.match(ctx.masked, start, end)
    if word is None or word.group() not in ctx.index.removed:
        return False
    return joins_neighbours(ctx.masked, word.start(), word.end(), ctx.index.removed, ctx.code_directives)


def _ends_in_line_comment(text: str, launch: Launch) -> bool:
    """Does a config or argument span end in a ``//`` comment (text after it would be commented out)?"""
    for start, end in launch.config + launch.args:
        last_line = text[start:end].rsplit("\n", 1)[-1]
        if "//" in last_line:
            return True
    return False


def _dim3(text: str) -> bool:
    return not text.startswith("dim3")


def launch_edits(text: str, launch: Launch, comments: Sequence[Span] = ()) -> list[Edit]:
    """The gap edits for one launch (see module doc); spans never end in a // comment here."""
    code, origin, subject = "HPY004", launch.origin, text[launch.kernel[0] : launch.kernel[1]]
    config = list(launch.config)
    wraps = [_dim3(text[s:e]) if i < 2 else False for i, (s, e) in enumerate(config)]
    before = text[launch.kernel[0] - 1] if launch.kernel[0] else " "
    # Right after a word or a literal, the launcher's name would join it (""s<<<: a longer ud-suffix).
    glue = " " if before.isalnum() or before in "_$\"'" else ""
    edits = [
        Edit(
            launch.kernel[0],
            launch.kernel[0],
            glue + LAUNCHER + "(" + (TEMPLATE_WRAPPER + "(" if launch.template else ""),
            code,
            origin,
            subject,
        )
    ]
    gaps: list[tuple[int, int, str]] = []
    # kernel -> first config: '<<<' becomes ', ' (and opens dim3).
    gap = (")" if launch.template else "") + ", " + ("dim3(" if wraps[0] else "")
    gaps.append((launch.kernel[1], config[0][0], gap))
    for i in range(1, len(config)):
        gap = (")" if wraps[i - 1] else "") + ", " + ("dim3(" if wraps[i] else "")
        gaps.append((config[i - 1][1], config[i][0], gap))
    tail = ")" if wraps[len(config) - 1] else ""
    tail += ", 0" * (4 - len(config))
    if launch.args:
        # Arguments, and the blanks before ')', are kept verbatim.
        gaps.append((config[-1][1], launch.args[0][0], tail + ", "))
    else:
        gaps.append((config[-1][1], launch.rparen, tail))
    for start, end, replacement in gaps:
        edits.extend(
            Edit(s, e, r, code, origin, subject)
            for s, e, r in _keeping_comments(text, start, end, replacement, comments)
        )
    return edits


def _keeping_comments(
    text: str, start: int, end: int, replacement: str, comments: Sequence[Span]
) -> list[tuple[int, int, str]]:
    """Edits turning the gap ``text[start:end]`` (``<<<``, ``,``, ``>>>(`` between spans) into
    ``replacement``. Comments in the gap stay, with the line breaks around them (a ``//``
    comment must still end its line): only the punctuation between them is rewritten."""
    first = bisect.bisect_left(comments, (start, -1))
    inside = [(cs, ce) for cs, ce in comments[first:] if cs < end and ce <= end]
    if not inside:
        return [(start, end, replacement)]
    edits: list[tuple[int, int, str]] = []
    for piece_start, piece_end in [(start, inside[0][0])] + [
        (inside[i][1], inside[i + 1][0] if i + 1 < len(inside) else end) for i in range(len(inside))
    ]:
        core = text[piece_start:piece_end]
        stripped = core.strip(" \t\r\n\f\v")
        if not stripped:
            continue
        core_start = piece_start + core.index(stripped[0])
        core_end = core_start + len(stripped)
        if edits:
            edits.append((core_start, core_end, ""))
        else:  # ', ' before a blank that stays: one blank is enough
            edits.append((core_start, core_end, replacement.rstrip(" ") if text[core_end].isspace() else replacement))
    if not edits:  # cannot happen: a gap holds at least one punctuator; stay safe
        edits.append((end, end, replacement))
    return edits
