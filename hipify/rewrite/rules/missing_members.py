"""Members of CUDA structs that HIP's struct lacks, reported where the code uses them (HPY127).

The table records them on the struct's row (``Row.hip_missing_members``, read from both vendors' struct bodies:
``cudaMemPoolProps::usage``, ``cudaDeviceProp::mpsEnabled``). A use is ``v.member`` or ``p->member`` on a name the
file declares with the struct's type (a variable, a pointer, a parameter, an array); left as written it does not
compile, and the report says which struct lacks what, where.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ...knowledge.table import MappingTable
from ...model import Diagnostic, Severity
from ..context import Context
from ..registry import Finding, register
from .device_pointers import code_only


@lru_cache(maxsize=8)
def _lacking(table: MappingTable) -> dict[str, tuple[str, frozenset[str]]]:
    """CUDA struct -> (HIP struct, the members it lacks)."""
    return {r.cuda: (r.hip, frozenset(r.hip_missing_members.split())) for r in table if r.hip_missing_members}


@register("missing_members")
def missing_members(ctx: Context) -> Iterator[Finding]:
    lacking = _lacking(ctx.table)
    present = [t for t in lacking if t in ctx.identifiers_by_name]  # the file's names: no text search per struct
    if not present:
        return
    code = code_only(ctx)
    for cuda in present:
        hip, members = lacking[cuda]
        names = _declared(code, cuda)
        if not names:
            continue
        use = re.compile(
            r"(?<![\w$.])(?:"
            + "|".join(map(re.escape, sorted(names)))
            + r")\s*(?:\[[^\]\n]*\]\s*)?(?:\.|->)\s*("
            + "|".join(map(re.escape, sorted(members)))
            + r")(?![\w$])"
        )
        for m in use.finditer(code):
            if not ctx.allowed(m.start(1)):
                continue
            member = m.group(1)
            yield Diagnostic(
                "HPY127",
                f"{member} is a member of CUDA's {cuda} that HIP's {hip} lacks: left as written, this does not "
                "compile under HIP",
                m.start(1),
                severity=Severity.WARNING,
                subject=f"{cuda}::{member}",
            )


def _declared(code: str, cuda: str) -> frozenset[str]:
    """Names the file declares with the struct's type: ``T v``, ``T* p``, ``const T& r``, ``T a[4]``, ``T a, b``."""
    found: set[str] = set()
    decl = re.compile(
        rf"(?<![\w$]){re.escape(cuda)}(?![\w$])((?:\s*(?:const|volatile|[*&]))*\s*[A-Za-z_]\w*"
        r"(?:\s*\[[^\]\n]*\])?(?:\s*=[^,;(){}]*)?(?:\s*,\s*[*&]*\s*[A-Za-z_]\w*(?:\s*\[[^\]\n]*\])?(?=\s*[,;=]))*)"
    )
    for m in decl.finditer(code):
        for part in m.group(1).split(","):
            word = re.search(r"[A-Za-z_]\w*(?=\s*(?:\[[^\]\n]*\])?\s*(?:=.*)?$)", part.strip(), re.DOTALL)
            if word and word.group() not in ("const", "volatile"):
                found.add(word.group())
    return frozenset(found)
