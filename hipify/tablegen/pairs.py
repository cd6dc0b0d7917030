"""Authoritative CUDA->HIP pairs from HIP's NVIDIA backend headers.

On NVIDIA, HIP defines each API in terms of the CUDA one: ``#define hipX cudaX``, ``typedef cudaX hipX;``,
one-call inline wrappers ``hipX(...) { return ...(cudaX(...)); }`` and conversion switches
``case hipX: return cudaX;``. Reading those gives pairs that naming rules cannot guess
(cuLaunchKernel -> hipModuleLaunchKernel, cudaDeviceProp -> hipDeviceProp_t).
"""

from __future__ import annotations

import re
from collections import defaultdict

from .headers import HeaderIndex

CUDA_ISH = re.compile(r"^(cuda|cu[A-Z]|CU|nvrtc|NVRTC|curand|CURAND|make_cu|__nv_|cublas|CUBLAS|cufft|CUFFT)")
HIP_ISH = re.compile(r"^(hip|HIP|make_hip|__hip_|ihip)")
# Result-code converters wrapped around the real call (hipCUDAErrorTohipError, nvrtcResultTohiprtcResult)
CONVERTER = re.compile(r"To(hip|Hip|HIP|cuda|Cuda|CUDA|cu[A-Z])")
# Conversion switches map many CUDA codes onto one catch-all HIP code; those are not renames.
COLLAPSE_LIMIT = 3


def backend_pairs(indexes: list[HeaderIndex]) -> dict[str, set[str]]:
    """CUDA name -> HIP names it is paired with."""
    out: dict[str, set[str]] = defaultdict(set)
    case_targets: dict[str, set[str]] = defaultdict(set)
    case_sources: dict[str, set[str]] = defaultdict(set)
    case_list: list[tuple[str, str]] = []
    for index in indexes:
        for name, hits in index.names.items():
            if not HIP_ISH.match(name):
                continue
            for hit in hits:
                d = hit.decl
                if d.alias_of and CUDA_ISH.match(d.alias_of):
                    out[d.alias_of].add(name)
                elif d.kind == "function" and d.defined:
                    called = sorted({c for c in d.calls if CUDA_ISH.match(c) and not CONVERTER.search(c)})
                    if len(called) == 1:
                        out[called[0]].add(name)
        for a, b in index.case_pairs:
            if HIP_ISH.match(a) and CUDA_ISH.match(b):
                a, b = b, a
            if CUDA_ISH.match(a) and HIP_ISH.match(b):
                case_list.append((a, b))
                case_targets[b].add(a)
                case_sources[a].add(b)
    for cuda, hip in case_list:
        if len(case_targets[hip]) < COLLAPSE_LIMIT and len(case_sources[cuda]) < COLLAPSE_LIMIT:
            out[cuda].add(hip)
    return dict(out)
