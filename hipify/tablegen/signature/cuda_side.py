"""The CUDA side of signature verification: the declarations of the table's function rows as nvcc's host pass sees
them, parsed with libclang from the cached CUDA 13 headers."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterable
from pathlib import Path

from ...knowledge.table import Row
from . import clang_tu
from .declarations import Declarations, read_declarations

# CUDA headers nvcc cannot include together with the ones the others need (the legacy cuBLAS API's cublas.h
# conflicts with cublas_v2.h, whose macros map the same names to the current functions), or that need headers of
# other projects (EGL, VDPAU)
_NOT_INCLUDED = re.compile(r"^(cublas\.h|cudaEGL\.h|cudaVDPAU\.h|cuda_egl_interop\.h|cuda_vdpau_interop\.h|cub/.*)$")


def cuda_text(rows: Iterable[Row]) -> str:
    headers = sorted({r.cuda_header for r in rows if r.cuda_header and not _NOT_INCLUDED.match(r.cuda_header)})
    return "".join(f"#include <{h}>\n" for h in headers)


def cuda_include_dir(cu13: Path) -> Path:
    """The CUDA toolkit's include directory when it was fetched, else the runtime header wheel's."""
    toolkit = cu13 / "toolkit"
    return toolkit if (toolkit / "cuda_runtime_api.h").is_file() else cu13 / "cuda_runtime"


def cuda_declarations(rows: Iterable[Row], cache: Path, family: str = "cu13") -> Declarations:
    """The CUDA declarations of ``rows`` (libclang, nvcc's host view) in the cached headers of a CUDA family (cu13;
    cu12 and cu11 hold only the runtime and cuSPARSE headers, for names CUDA 13 no longer declares)."""
    root = cache / "cuda" / family
    include = cuda_include_dir(root)
    # the runtime wheel lacks crt/, which its headers include: the crt wheel has it (the toolkit its own)
    skip = {"toolkit", "cuda_runtime", "cccl"}
    libraries = [p for p in sorted(root.iterdir()) if p.is_dir() and p.name not in skip]
    crt = cache / "cuda" / "crt" / "cu13"
    if include.name != "toolkit" and crt.is_dir():
        libraries.append(crt)
    if (root / "cccl").is_dir():
        libraries.append(root / "cccl")
    with tempfile.TemporaryDirectory(prefix="hipify-signatures-") as scratch:
        args = clang_tu.cuda_args(include, libraries, Path(scratch))
        return read_declarations(clang_tu.parse(cuda_text(rows), args, "hipify_signatures.cu").tu)
