"""Code a current CUDA build skips in both of its passes: what ``rules/build_conditions`` leaves out of HIP's.

A declaration there (an old toolkit's ``__ldcs`` for bf16 under ``#if __CUDACC_VER_MAJOR__ < 12``) is not the
project's own version of a CUDA name once the condition is decided: the name stays CUDA's, and the compatibility
header may provide it. Only conditions on the macros of ``build_target.ASSUMED`` are read; any other name makes a
condition unknown, and an unknown condition skips nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from ..lexing.condition_expr import evaluate, parse
from ..lexing.conditionals import CondDirective, inactive_spans
from ..model import Span
from .build_target import ASSUMED


def skipped_spans(directives: Sequence[CondDirective]) -> list[Span]:
    """Spans skipped both by the host pass and by the device pass of the build ``build_target`` describes."""
    if not any(name in d.argument for d in directives if d.keyword in ("if", "elif") for name in ASSUMED):
        return []
    device = inactive_spans(directives, {}, partial(_decide, True))
    host = inactive_spans(directives, {}, partial(_decide, False))
    return _intersection(device, host)


def inside(spans: Sequence[Span], offset: int) -> bool:
    return any(start <= offset < end for start, end in spans)


def _decide(device: bool, keyword: str, argument: str) -> bool | None:
    if keyword in ("ifdef", "ifndef"):
        assumed = ASSUMED.get(argument.strip())
        if assumed is None:
            return None
        is_defined = (assumed.device if device else assumed.host) is not None
        return is_defined if keyword == "ifdef" else not is_defined
    node = parse(argument)
    if node is None:
        return None

    def value_of(name: str) -> int | None:
        assumed = ASSUMED.get(name)
        if assumed is None:
            return None
        value = assumed.device if device else assumed.host
        return 0 if value is None else value

    def defined(name: str) -> bool | None:
        assumed = ASSUMED.get(name)
        return None if assumed is None else (assumed.device if device else assumed.host) is not None

    value = evaluate(node, value_of, defined)
    return None if value is None else bool(value)


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
