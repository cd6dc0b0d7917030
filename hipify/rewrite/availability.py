"""Whether a table row leaves CUDA that HIP cannot compile, under the chosen options."""

from __future__ import annotations

from functools import lru_cache

from ..compat import load_catalog
from ..knowledge.table import Row
from ..options import Options
from .status import decide

# Rows that are never "missing": they are not names code uses as an API.
_NOT_APIS = frozenset(("header", "namespace", "field"))


def is_missing(row: Row, options: Options, releases: tuple[tuple[int, ...], ...] = ()) -> bool:
    """No HIP target under ``options``: the CUDA name stays, so code using it cannot compile for HIP."""
    if row.kind in _NOT_APIS:
        return False
    if row.transform is not None and row.transform.kind == "remove":
        return False  # deleted (calling-convention macros): nothing is left to compile
    return not decide(row, options, releases).target


@lru_cache(maxsize=16)
def compat_provided(options: Options) -> frozenset[str]:
    """Unqualified names the compatibility header provides under ``options`` (none when it is off)."""
    if not options.compat_header:
        return frozenset()
    rocm = options.rocm_version
    return frozenset(n for n, e in load_catalog().by_provided_name.items() if "::" not in n and e.applies_to(rocm))
