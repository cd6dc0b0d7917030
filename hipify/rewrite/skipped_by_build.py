"""Code a current CUDA build skips in both of its passes: what ``rules/build_conditions`` leaves out of HIP's.

A declaration there (an old toolkit's ``__ldcs`` for bf16 under ``#if __CUDACC_VER_MAJOR__ < 12``) is not the
project's own version of a CUDA name once the condition is decided: the name stays CUDA's, and the compatibility
header may provide it. Only conditions on the macros of ``build_target.ASSUMED`` are read; any other name makes a
condition unknown, and an unknown condition skips nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..lexing.condition_expr import macro_decider
from ..lexing.conditionals import CondDirective, inactive_spans
from ..model import Span
from .build_target import ASSUMED

# Each pass decides the assumed macros as it defines them (None: not defined there).
_DEVICE_PASS = macro_decider({name: assumed.device for name, assumed in ASSUMED.items()})
_HOST_PASS = macro_decider({name: assumed.host for name, assumed in ASSUMED.items()})


def skipped_spans(directives: Sequence[CondDirective]) -> list[Span]:
    """Spans skipped both by the host pass and by the device pass of the build ``build_target`` describes."""
    if not any(name in d.argument for d in directives if d.keyword in ("if", "elif") for name in ASSUMED):
        return []
    device = inactive_spans(directives, {}, _DEVICE_PASS)
    host = inactive_spans(directives, {}, _HOST_PASS)
    return _intersection(device, host)


def inside(spans: Sequence[Span], offset: int) -> bool:
    return any(start <= offset < end for start, end in spans)


def _intersection(a: list[Span], b: list[Span]) -> list[Span]:
    out: list[Span] = []
    i = j = 0
    a, b = sorted(a), sorted(b)
    while i < len(a) and j < len(b):
        start, end = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if start < end:
            out.append((start, end))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out
