"""A lane mask stored in 32 bits: widened to HIP's 64-bit mask (HPY033).

CUDA's ``__ballot_sync``, ``__activemask`` and ``__match_any_sync`` return 32-bit masks; HIP's return 64-bit ones,
a bit per lane of a 64-wide wavefront. Code that keeps the result in 32 bits (``unsigned ballot =
__ballot_sync(...)``) compiles and loses lanes 32 to 63 on CDNA GPUs: a count of ``__popc(ballot)`` is half what it
should be, with no error. The variable's type becomes ``unsigned long long`` (what HIP returns; on a 32-lane GPU its
upper half is 0), and ``__popc``/``__ffs`` of it in the same function their 64-bit forms. Other uses (shifts, a
32-bit parameter it is passed to) are the project's to check: HPY107 says where masks are 64-bit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model import Edit, Origin
from ..context import Context
from ..registry import Finding, register

MASK_CALLS = frozenset(("__ballot_sync", "__ballot", "__activemask", "__match_any_sync", "__match_all_sync"))
WIDE = "unsigned long long"
_DECLARATION = re.compile(
    r"(?:^|[;{}])\s*(?:const\s+)?(?P<type>unsigned\s+int|unsigned|int|uint32_t|int32_t|uint)\s+(?P<name>[A-Za-z_]\w*)"
    r"\s*=\s*\Z"
)
_NARROW_COUNTS = {"__popc": "__popcll", "__ffs": "__ffsll"}
_LOOK_BACK = 160


@register("lane_masks")
def lane_masks(ctx: Context) -> Iterator[Finding]:
    if not MASK_CALLS & ctx.used_rows:
        return
    masked = ctx.masked
    for ident, _ in ctx.uses_of(MASK_CALLS):
        if ident.next_token != "(" or ident.directive or ident.prev_token != "=":
            continue
        window = max(0, ident.start - _LOOK_BACK)
        m = _DECLARATION.search(masked, window, ident.start)
        if m is None or not ctx.allowed(ident.start, ident.region):
            continue
        owner = ctx.definition_at(ident.start)
        if owner is None:
            continue
        yield Edit(m.start("type"), m.end("type"), WIDE, "HPY033", Origin.TEXT, subject=ident.name)
        name = m.group("name")
        counts = re.compile(rf"\b(__popc|__ffs)\s*\(\s*{re.escape(name)}\s*\)")
        for use in counts.finditer(masked, m.end(), owner.end):
            wide = _NARROW_COUNTS[use.group(1)]
            yield Edit(use.start(1), use.end(1), wide, "HPY033", Origin.TEXT, subject=ident.name)
