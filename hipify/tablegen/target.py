"""A verified HIP (or ROC) target of one CUDA name: what the current headers say about it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    name: str = ""
    status: str = "unsupported"
    header: str = ""
    since: str = ""
    source: str = ""  # how the pair was found (mapping_tables/README.md)
    beta: bool = False
    note: str = ""
