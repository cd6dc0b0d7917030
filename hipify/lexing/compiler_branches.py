"""Code only a CUDA compiler reads: the branches of ``#ifdef __CUDACC__`` (or ``__NVCC__``) that a host compiler skips.

A header shared by ``.cu`` files and by C/C++ files built with ``gcc`` keeps its device code behind such a test.
Its CUDA uses there need what nvcc's implicit include brings (``__device__``, the runtime API) only where the branch
is compiled: the translation places the HIP runtime include inside the branch (``rules/runtime_include``), and a
translation unit that reaches such uses only there does not need the HIP runtime for them (``project/scan``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model import Span
from .condition_expr import macro_decider
from .conditionals import CondDirective, inactive_spans
from .facts import Directive

# Macros a CUDA compiler defines and a host compiler does not (nvcc for both of its passes, clang in CUDA mode).
CUDA_COMPILER_MACROS = frozenset(("__CUDACC__", "__NVCC__"))
_decide = macro_decider(dict.fromkeys(CUDA_COMPILER_MACROS))


def host_skipped(directives: Sequence[CondDirective | Directive]) -> list[Span]:
    """Spans a host compiler skips because a CUDA compiler macro is not defined there; every other condition is
    unknown (taken). An end of -1 runs to the end of the file."""
    if not any(macro in d.argument for d in directives for macro in CUDA_COMPILER_MACROS):
        return []
    conditions = [CondDirective(d.start, d.end, d.keyword, d.argument) for d in directives]
    return inactive_spans(conditions, {}, _decide)


def inside(spans: Sequence[Span], offset: int) -> bool:
    return any(start <= offset and (offset < end or end < 0) for start, end in spans)
