"""``template`` before a member template named in a dependent scope (HPY030), from the clang engine's AST.

``vec_cast<T, S>::cast<N>(d, s)`` inside a template, where ``vec_cast<T, S>`` depends on its parameters: nvcc
takes ``cast`` for the member template it is, clang follows the standard and reads two comparisons,
``(vec_cast<T, S>::cast < N) > (d, s)``, which fail when the template is instantiated ("missing 'template'
keyword", "reference to overloaded function could not be resolved"). The clang engine finds the places where its
AST holds that reading (``dependent_templates`` in the facts); the text alone cannot tell a member template from a
value, so the regex engine finds none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model import Diagnostic, Edit, Origin, Severity
from ..context import Context
from ..registry import Finding, register

_NAME = re.compile(r"[A-Za-z_]\w*")


@register("dependent_templates")
def dependent_templates(ctx: Context) -> Iterator[Finding]:
    for offset in ctx.facts.dependent_templates:
        if not ctx.allowed(offset):
            continue
        m = _NAME.match(ctx.text, offset)
        if m is None:
            continue
        name = m.group()
        yield Edit(offset, offset, "template ", "HPY030", Origin.AST, subject=name)
        yield Diagnostic(
            "HPY030",
            f"'template' added before {name}: a member template named in a dependent scope, which clang reads as "
            "a comparison without it (nvcc does not)",
            offset,
            severity=Severity.INFO,
            subject=name,
        )
