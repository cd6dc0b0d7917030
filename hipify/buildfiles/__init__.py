"""Build files (GNU make, CMake) translated in the same run as the sources.

A build file never learns C++, and a source engine never learns make: what a build file's
translation needs from the rest of the project comes in as a :class:`BuildContext` value (the API
families the project's sources use, the sources renamed by an option, the GPU targets chosen, the host
sources that include the HIP runtime; a value of ``hipify.model``, where the project facts that carry it are), and
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

from ..model import BuildContext, Diagnostic, Edit

__all__ = ["CMAKE", "MAKE", "BuildContext", "BuildResult", "build_kind"]

MAKE = "make"
CMAKE = "cmake"


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
