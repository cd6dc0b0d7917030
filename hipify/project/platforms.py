"""The project's own platform options, and the files only they reach.

Projects that build for several GPU platforms choose one with macros of their own, which their build system
defines: ``#if defined(GGML_USE_HIP) #include "vendors/hip.h" #elif defined(GGML_USE_MUSA) ... #else #include
"vendors/cuda.h" #endif``. The translation produces the CUDA build, compiled by hipcc; it defines none of those
options. So what a file reached only through them defines (its own HIP build's ``#define __trap() abort()``, another
platform's ``#define cudaStream_t musaStream_t``) is not defined in the translated build: the translation supplies
those names as if the project had no definition of them.

A macro is such an option when the project never defines it itself, it is spelled as the project's own (no
compiler's, CUDA's or HIP's), and a branch its condition selects
- includes HIP's runtime header, or a project file that does (its own HIP build); or
- is an alternative, in the same ``#if`` chain, to a branch that includes a CUDA header or a project file that
  includes CUDA's runtime (another platform's build, or the project's own ROCm stand-in for a CUDA header:
  ``#ifdef USE_ROCM #define CUDART_NAN_F ... #else #include <math_constants.h> #endif``; the translated build
  takes the CUDA branch).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .scan import FileScan

HIP_RUNTIME_HEADERS = frozenset(("hip/hip_runtime.h", "hip/hip_runtime_api.h"))
CUDA_RUNTIME_HEADERS = frozenset(("cuda_runtime.h", "cuda_runtime_api.h", "cuda.h"))
# Names no project option has: reserved ones (``__HIPCC__``, ``_WIN32``) and the vendors' (``CUDA_VERSION``,
# ``HIP_VERSION``, ``ROCM_VERSION``, ``NV_IF_TARGET``, ``CUBLAS_VER_MAJOR``).
_NOT_AN_OPTION = re.compile(r"_|cuda|CUDA|CU[A-Z_]|cu[A-Z]|hip|HIP|roc|ROC|NV|nv[A-Z_]|CUB|THRUST")

Target = Callable[[str, int], str]  # (file key, index of one of its includes) -> the project file it reaches, or ""


def options_by_file(scans: Mapping[str, FileScan], target: Target) -> dict[str, frozenset[str]]:
    """The platform options each file's own conditions reveal (see the module doc); only files with some."""
    if not any(s.include_guards for s in scans.values()):
        return {}
    # A HIP include only a HIP compiler reads (``#ifdef __HIP_PLATFORM_AMD__``) is read by the translated build too:
    # the header adapts itself to hipcc, and the option selecting it is no other platform's (``USE_CUDA``).
    hip_side = {
        k
        for k, s in scans.items()
        if any(i.name in HIP_RUNTIME_HEADERS and n not in s.hip_compiler_includes for n, i in enumerate(s.includes))
    }
    cuda_side = {k for k, s in scans.items() if any(i.name in CUDA_RUNTIME_HEADERS for i in s.includes)}
    defined = frozenset().union(*(s.defines for s in scans.values()))
    out: dict[str, frozenset[str]] = {}
    for key, scan in scans.items():
        if not scan.include_guards:
            continue
        found: set[str] = set()
        reaches_cuda: dict[int, dict[int, bool]] = {}  # chain -> branch -> does it include a CUDA header
        own: dict[tuple[int, int], frozenset[str]] = {}
        for index, (include, guard) in enumerate(zip(scan.includes, scan.include_guards, strict=True)):
            reached = target(key, index)
            if (include.name in HIP_RUNTIME_HEADERS and index not in scan.hip_compiler_includes) or reached in hip_side:
                found |= guard.own
            if guard.chain >= 0:
                branches = reaches_cuda.setdefault(guard.chain, {})
                cuda = index in scan.cuda_includes or reached in cuda_side
                branches[guard.branch] = branches.get(guard.branch, False) or cuda
                own[(guard.chain, guard.branch)] = own.get((guard.chain, guard.branch), frozenset()) | guard.own
        for guard in scan.branch_guards:  # branches without includes: alternatives too
            reaches_cuda.get(guard.chain, {}).setdefault(guard.branch, False)
            own[(guard.chain, guard.branch)] = own.get((guard.chain, guard.branch), frozenset()) | guard.own
        for chain, branches in reaches_cuda.items():
            if any(branches.values()):
                found.update(*(own.get((chain, b), frozenset()) for b, cuda in branches.items() if not cuda))
        options = frozenset(m for m in found if m not in defined and not _NOT_AN_OPTION.match(m))
        if options:
            out[key] = options
    return out


def other_builds(
    by_file: Mapping[str, frozenset[str]],
    roots: Iterable[str],
    scans: Mapping[str, FileScan],
    edges: Mapping[str, Sequence[str]],
    target: Target,
) -> frozenset[str]:
    """The files every translation unit reaching them reaches only through includes that one of its own platform
    options guards (the options found in its own include closure: another program of the tree is no evidence):
    read by the project's other builds, never by the translated one."""
    if not by_file:
        return frozenset()
    reached_any: set[str] = set()
    reached_taken: set[str] = set()
    for root in roots:
        everything = _reached([root], lambda key: edges.get(key, ()))
        options = frozenset().union(*(by_file.get(k, frozenset()) for k in everything))
        reached_any |= everything
        if not options:
            reached_taken |= everything
            continue

        def taken(key: str, options: frozenset[str] = options) -> Iterable[str]:
            scan = scans.get(key)
            if scan is None or not scan.include_guards:
                return edges.get(key, ())
            out = []
            for index, guard in enumerate(scan.include_guards):
                reached = target(key, index)
                if reached and not (guard.requires & options):
                    out.append(reached)
            return out

        reached_taken |= _reached([root], taken)
    return frozenset(reached_any - reached_taken)


def _reached(roots: Iterable[str], following: Callable[[str], Iterable[str]]) -> set[str]:
    seen: set[str] = set()
    stack = list(roots)
    while stack:
        key = stack.pop()
        if key in seen:
            continue
        seen.add(key)
        stack.extend(following(key))
    return seen
