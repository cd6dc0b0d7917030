"""Say once per file where ``--roc`` / ``--miopen`` could not give a family its ROC library's names
(see ``rewrite.flavour``): HPY114 when the family keeps its HIP names, HPY115 when it has none to keep."""

from __future__ import annotations

from collections.abc import Iterator

from ...model import Diagnostic, Severity
from ..context import Context
from ..registry import Finding, register
from ..status import library_flag


@register("flavour")
def flavour(ctx: Context) -> Iterator[Finding]:
    chosen = ctx.flavour
    libraries = ctx.index.roc_libraries
    for gap in chosen.kept:
        where = "another file of the project uses" if gap.elsewhere else "this file uses"
        yield Diagnostic(
            "HPY114",
            f"--roc: the {gap.family} API keeps its HIP names in this file, not {libraries[gap.family]}'s, as "
            f"{where} what {libraries[gap.family]} lacks ({gap.why}); the two libraries' names do not mix",
            gap.offset,
            severity=Severity.WARNING,
            subject=gap.family,
        )
    for gap in chosen.incomplete:
        library = libraries[gap.family]
        yield Diagnostic(
            "HPY115",
            f"--{library_flag(gap.family)}: this file's {gap.family} API needs hand work: {gap.why}; "
            f"what {library} has is translated, the rest is reported where it is used",
            gap.offset,
            severity=Severity.WARNING,
            subject=gap.family,
        )
