"""What a translated call passes, per function row: the CUDA declaration's parameter types mapped through the table.
The every-row compile test (tests/test_table_calls.py) compiles one call per row from these."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ...knowledge.table import Row
from .cuda_side import cuda_declarations
from .mapping import map_spelling

MATCHED = frozenset({"same", "sibling", "define"})


@dataclass(frozen=True)
class Call:
    row: Row
    target: str
    requires: str  # the macro to define first ('' for none)
    params: tuple[str, ...]  # the argument types, mapped


def calls(table: Iterable[Row], cache: Path, roc: bool = False) -> list[Call]:
    """One call per function row whose target the table says takes the translated call (``*_signature`` same,
    sibling or define), from the row's primary CUDA declaration."""
    rows = list(table)
    lookup = {r.cuda: r for r in rows}
    wanted = [r for r in rows if (r.roc_signature if roc else r.hip_signature) in MATCHED]
    cuda = cuda_declarations(wanted, cache)
    out: list[Call] = []
    for row in wanted:
        found = cuda.overloads(row.cuda)
        own = [d for d in found if d.header.endswith("/" + row.cuda_header)] or found
        if not own:
            continue
        sig = own[0].signature
        mapped = [map_spelling(p, lookup.get, roc) for p in sig.params]
        if any(m.unmapped for m in mapped) or sig.variadic:
            continue
        target, requires = (row.roc, row.roc_requires) if roc else (row.hip, row.hip_requires)
        if not roc and row.transform is not None and row.transform.kind == "by_arity":
            target = dict(row.transform.arity).get(len(mapped), target)  # what translation writes for this call
        out.append(Call(row, target, requires, tuple(m.spelling for m in mapped)))
    return out
