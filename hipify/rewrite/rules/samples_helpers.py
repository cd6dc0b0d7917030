"""An NVIDIA samples helper header (``helper_cuda.h``, ``helper_timer.h``, ...) the tree does not hold: reported once
per file at its include, with what the file uses from it (HPY125).

The project model says which helpers did not resolve (``ProjectFacts.missing_helpers``); which names each declares is
``knowledge/samples_helpers``. Nothing is edited: the helper is NVIDIA's, and its uses need it (or a replacement).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...knowledge.samples_helpers import HELPERS, helper_of
from ...lexing.facts import Region
from ...model import Diagnostic, Severity
from ..context import Context
from ..registry import Finding, register

_WORD = re.compile(r"[A-Za-z_]\w*")


@register("samples_helpers")
def samples_helpers(ctx: Context) -> Iterator[Finding]:
    missing = ctx.source.project.missing_helpers
    if not missing:
        return
    words: set[str] | None = None
    reported: set[str] = set()
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
