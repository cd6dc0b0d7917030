"""The compatibility header: small CUDA features ROCm lacks, written in HIP, chosen per translation.

The entries live in ``entries.toml`` (data, like the mapping table); ``load_catalog()`` reads them once,
``CompatCatalog.for_name``/``for_header`` find the entry a use needs, ``closure`` adds what entries build on,
and ``render`` writes the header text.
"""

from __future__ import annotations

from .catalog import (
    CompatCatalog,
    CompatCatalogError,
    CompatEntry,
    QualifiedName,
    RocmVersion,
    load_catalog,
    parse_catalog,
)
from .render import HEADER_NAME, INCLUDE_GUARD, entries_in, is_generated, render

__all__ = [
    "HEADER_NAME",
    "INCLUDE_GUARD",
    "CompatCatalog",
    "CompatCatalogError",
    "CompatEntry",
    "QualifiedName",
    "RocmVersion",
    "entries_in",
    "is_generated",
    "load_catalog",
    "parse_catalog",
    "render",
]
