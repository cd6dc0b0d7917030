"""Build files (GNU make, CMake) translated in the same run as the sources.

A build file never learns C++, and a source engine never learns make: what a build file's
translation needs from the rest of the project comes in as a :class:`BuildContext` value (the API
families the project's sources use, the sources renamed by an option, the GPU targets chosen, the host
sources that include the HIP runtime), and
it returns the same values the source engines do (``Edit`` in the file's original coordinates,
``Diagnostic`` in gcc's form), so the one splice routine, the outputs and the report need nothing new.

Contract (each format is one module with ``translate(text, path, context) -> BuildResult``):
- pure: no I/O, no printing, never raises on bad input (a problem becomes a diagnostic);
- idempotent: translating its own output again gives no edit;
- a file with no CUDA in it gives no edit;
- comments, and strings of shell commands that are not the CUDA compiler, are never edited.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..model import Diagnostic, Edit
from ..options import DEFAULT_OFFLOAD_ARCH

MAKE = "make"
CMAKE = "cmake"


@dataclass(frozen=True)
class BuildContext:
    """What a build file's translation needs to know about the rest of the project."""

    # API families (the table's family names: "blas", "fft", "rand", ...) the project's sources use.
    families: tuple[str, ...] = ()
    # (old basename, new basename) of sources renamed by --rename-extensions (a.cu -> a.hip).
    renamed: tuple[tuple[str, str], ...] = ()
    # AMD GPU targets for --offload-arch / HIP_ARCHITECTURES.
    offload_arch: tuple[str, ...] = DEFAULT_OFFLOAD_ARCH
    # --roc: link the ROC libraries (rocblas, ...) instead of the HIP ones (hipblas, ...).
    roc: bool = False
    # --roc: families the sources keep with their HIP names (the project's hip_families): their HIP library.
    hip_families: tuple[str, ...] = ()
    # C/C++ sources (paths relative to the build file's directory) whose translation units include the HIP
    # runtime: a host compiler needs HIP's platform define and headers to compile them.
    hip_sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class BuildResult:
    edits: tuple[Edit, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()


_SEPARATORS = os.sep + (os.altsep or "")


def build_kind(path: str) -> str | None:
    """``"make"``, ``"cmake"`` or None: whether a path names a build file this package translates."""
    name = os.path.basename(path.rstrip(_SEPARATORS))  # PurePath(path).name, without building a path object
    lower = name.lower()
    if name in ("Makefile", "makefile", "GNUmakefile") or lower.endswith((".mk", ".mak", ".make")):
        return MAKE
    if lower.startswith(("makefile.", "make.")):  # Makefile.common; a suite's shared make.config, make.inc
        return MAKE
    if name == "CMakeLists.txt" or lower.endswith(".cmake"):
        return CMAKE
    return None
