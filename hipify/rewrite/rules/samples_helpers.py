"""An NVIDIA samples helper header (``helper_cuda.h``, ``helper_timer.h``, ...) the tree does not hold.

Where hipify-py has a HIP version of the helper (``knowledge.samples_helpers.HIP_VERSIONS``) and the compatibility
header is on, the include names that version, which the output gets beside the compatibility header (HPY035; the
translation lists it among its compatibility entries, so the run writes it). Otherwise the include is reported once
per file with what the file uses from it (HPY125). A tree that holds its own copy keeps it: the project model lists
only the helpers no tree file answers for (``ProjectFacts.missing_helpers``).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from ...knowledge.samples_helpers import HELPERS, HIP_VERSIONS, helper_entry, helper_of
from ...lexing.facts import Include, Region
from ...model import Diagnostic, Edit, Origin, Severity
from ..context import Context
from ..registry import Finding, register

_WORD = re.compile(r"[A-Za-z_]\w*")


def _written(ctx: Context) -> Iterator[tuple[str, Include]]:
    """The missing helpers whose HIP version the output gets, with the include naming each."""
    missing = ctx.source.project.missing_helpers
    if not missing or not ctx.options.compat_header:
        return
    seen: set[str] = set()
    for inc in ctx.facts.includes:
        helper = helper_of(inc.header)
        if helper in missing and helper in HIP_VERSIONS and inc.region is not Region.INACTIVE:
            if helper not in seen:
                seen.add(helper)
            yield helper, inc


def helper_entries(ctx: Context) -> tuple[str, ...]:
    """The compatibility entries naming the helpers this file's output needs written."""
    return tuple(sorted({helper_entry(helper) for helper, _ in _written(ctx)}))


def _beside_compat(ctx: Context, helper: str) -> str:
    folder = posixpath.dirname(ctx.source.project.compat_include)
    return posixpath.join(folder, helper) if folder else helper


@register("samples_helpers")
def samples_helpers(ctx: Context) -> Iterator[Finding]:
    missing = ctx.source.project.missing_helpers
    if not missing:
        return
    words: set[str] | None = None
    reported: set[str] = set()
    written = list(_written(ctx))
    for helper, inc in written:
        spelled = _beside_compat(ctx, helper)
        # <helper_cuda.h>, "../../Common/helper_cuda.h" -> the version written beside the compatibility header
        yield Edit(inc.name[0] - 1, inc.name[1] + 1, f'"{spelled}"', "HPY035", Origin.TEXT, inc.header)
        if helper not in reported:
            reported.add(helper)
            yield Diagnostic(
                "HPY035",
                f"{inc.header} is not in the tree: it is one of NVIDIA's CUDA samples helpers; the output gets "
                f"hipify-py's HIP version of it ({spelled}, beside the compatibility header)",
                offset=inc.start,
                severity=Severity.INFO,
                subject=helper,
            )
    for inc in ctx.facts.includes:
        helper = helper_of(inc.header)
        if helper not in missing or helper in reported or inc.region is Region.INACTIVE:
            continue
        reported.add(helper)
        if words is None:
            words = set(_WORD.findall(ctx.masked))
        used = sorted(words & HELPERS[helper])
        uses = f"this file uses {', '.join(used)} from it" if used else "this file uses none of its names itself"
        yield Diagnostic(
            "HPY125",
            f"{inc.header} is not in the tree: it is one of NVIDIA's CUDA samples helpers (their Common folder); "
            f"{uses}: add the helper to the tree (it is translated with the sources) or replace those uses",
            offset=inc.start,
            severity=Severity.WARNING,
            subject=helper,
        )
