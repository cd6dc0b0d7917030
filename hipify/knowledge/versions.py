"""Library version macros: ``CUBLAS_VER_MAJOR``, ``CUFFT_VERSION``, ``CUDNN_MAJOR``, ... by the shape of their names.

The table maps them to the ROCm library's own (``hipblasVersionMajor``): a value printed or logged then says which
library the program runs on. The numbers are that library's, not the CUDA library's: ``#if CUBLAS_VER_MAJOR >= 11``
compares hipBLAS's major version (2 on ROCm 6.4) with cuBLAS's numbers, and takes the branch written for an old
cuBLAS. The translation reports each such condition (HPY126); docs/portability.md says why this choice.
"""

from __future__ import annotations

import re

from .table import Row

# CUBLAS_VER_MAJOR, CUSPARSE_VER_PATCH, CUFFT_VERSION, CURAND_VERSION, CUDNN_MAJOR, CUDNN_PATCHLEVEL, CUDNN_VERSION
_VERSION_MACRO = re.compile(
    r"^(?:CU[A-Z]+_VER_(?:MAJOR|MINOR|PATCH|BUILD)|CU[A-Z]+_VERSION|CUDNN_(?:MAJOR|MINOR|PATCHLEVEL))$"
)
_PART = re.compile(r"_VER_(MAJOR|MINOR|PATCH)$")
# The runtime's and the toolkit's own (CUDART_VERSION, CUDA_VERSION) are CUDA versions: decided as a CUDA build.
_TOOLKIT = frozenset(("runtime", "driver", "device", "compiler"))


def is_library_version(row: Row) -> bool:
    """Whether ``row`` is a CUDA library's version macro (not the toolkit's)."""
    return row.kind == "macro" and row.api not in _TOOLKIT and _VERSION_MACRO.match(row.cuda) is not None


def version_part_candidates(name: str, cuda_prefix: str, hip_prefix: str) -> list[str]:
    """``CUBLAS_VER_MAJOR`` -> ``hipblasVersionMajor`` (the spelling of hipBLAS, hipSPARSE, hipFFT, hipSOLVER)."""
    m = _PART.search(name)
    if m is None or not name.startswith(cuda_prefix + "_VER_"):
        return []
    return [f"{hip_prefix}Version{m.group(1).capitalize()}"]
