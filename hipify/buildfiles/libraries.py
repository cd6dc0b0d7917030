"""CUDA libraries, installation paths and CMake targets -> their ROCm counterparts (make and CMake share it).

The HIP library a CUDA library becomes is derived from the mapping table: the library of a family is the one
whose headers the family's rows map to (``hipblas/hipblas.h`` -> ``hipblas``; with ``--roc`` the rows'
``roc_header``: ``rocblas/...`` -> ``rocblas``). What the table cannot know is written here, each with why:
the CUDA library file names of a family (``cudart_static``, ``cufftw``), the few ROCm libraries whose file
is not named like their header directory (MIOpen), and the CMake packages and imported targets ROCm ships.

API:
- :func:`library_change` ``(name, context) -> LibraryChange | None``: ``-l<name>``'s replacement
  (None: not a CUDA library); ``LibraryChange.name`` "" means dropped (hipcc links the HIP runtime itself),
  ``hand_work`` means no HIP library does its job.
- :func:`rocm_path` ``(text, rocm_root) -> str | None``: a path under the CUDA installation
  (``/usr/local/cuda/include``, ``$(CUDA_HOME)/lib64``, ``${CUDA_PATH}``) -> the same under ROCm's, or None
  when ``text`` is not under the CUDA installation.
- :func:`cmake_target` ``(name, context) -> CMakeTarget | None``: ``CUDA::cublas`` -> ``roc::hipblas`` with the
  ``find_package`` it needs (``hipblas``); ``CUDA::cudart`` -> ``hip::host`` from ``find_package(hip)``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache

from ..knowledge.families import ALIASES
from ..knowledge.table import load_table
from . import BuildContext

# CUDA library file names the family aliases do not spell (the aliases give cublas, cufft, ... for the rest).
_EXTRA_CUDA_LIBRARIES: dict[str, str] = {
    "cudart": "runtime",
    "cudart_static": "runtime",
    "cuda": "driver",
    "cudadevrt": "runtime",  # nvcc's device runtime for -rdc; clang's -fgpu-rdc needs no library
    "culibos": "runtime",  # internal helper of the static CUDA libraries
    "cufftw": "fft",
    "cublas_static": "blas",
    "cufft_static": "fft",
    "curand_static": "rand",
    "cusparse_static": "sparse",
    "cusolver_static": "solver",
    "cublaslt": "blaslt",
    "cublaslt_static": "blaslt",
    "nvtoolsext": "nvtx",
    "nvtx3interop": "nvtx",
    "nccl": "nccl",  # the family is named after its library (no cu/nv prefix to find it by)
    "nccl_static": "nccl",
}
# NVIDIA libraries with no HIP counterpart in the table: reported as hand work when linked.
_NO_COUNTERPART = ("nvidia-ml", "cupti", "nvjpeg", "nvjitlink", "cufile", "nvblas", "cusolvermg", "nppc")
# ROCm libraries whose file is not named like the directory of their headers.
_LIBRARY_FILE = {"miopen": "MIOpen", "roctracer": "roctx64"}
# Families whose API is in the HIP runtime that hipcc links by itself.
_RUNTIME_FAMILIES = ("runtime", "driver", "device", "complex", "compiler", "headers")


@dataclass(frozen=True)
class LibraryChange:
    name: str  # the library to link instead ("" = none is needed)
    reason: str
    hand_work: bool = False


def _cuda_library_families() -> dict[str, str]:
    names = {alias.lower(): family for family, aliases in ALIASES.items() for alias in aliases[:1]}
    names = {name: family for name, family in names.items() if name.startswith(("cu", "nv"))}
    names.update(_EXTRA_CUDA_LIBRARIES)
    return names


def _header_library(header: str) -> str:
    """``hipblas/hipblas.h`` -> hipblas; ``hip/hiprtc.h`` -> hiprtc (a runtime header of HIP -> "")."""
    parts = header.split("/")
    if len(parts) < 2:
        return ""
    if parts[0] == "hip":
        stem = parts[-1].split(".")[0]
        # hip/hiprtc.h is a library of its own; hip/hip_runtime_api.h, hip/amd_detail/... are the runtime.
        return stem if stem.startswith("hip") and "_" not in stem and stem != "hip" else ""
    return parts[0]


@cache
def family_libraries(roc: bool) -> dict[str, str]:
    """The table's family -> the ROCm library its rows' headers belong to ('' = the HIP runtime)."""
    counts: dict[str, Counter[str]] = {}
    for row in load_table():
        header = row.roc_header if roc and row.roc_header else row.hip_header
        if not roc and not row.hip_header and row.roc_header and row.api == "dnn":
            header = ""  # cuDNN maps to MIOpen only with --roc / --miopen
        library = _header_library(header) if header else ""
        if library and row.api not in _RUNTIME_FAMILIES:
            counts.setdefault(row.api, Counter())[library] += 1
    found = {family: counter.most_common(1)[0][0] for family, counter in counts.items()}
    if roc:
        # A family without ROC rows (hipfft's rows name no rocfft header) keeps its HIP library.
        for family, library in family_libraries(False).items():
            found.setdefault(family, library)
    return {family: _LIBRARY_FILE.get(library, library) for family, library in found.items()}


def library_change(name: str, context: BuildContext) -> LibraryChange | None:
    """What ``-l<name>`` becomes; None when ``name`` is not a CUDA library."""
    key = name.lower()
    if key in _NO_COUNTERPART or key.startswith("npp"):
        return LibraryChange(name, f"no ROCm library does what lib{name} does: port its uses by hand", True)
    family = _cuda_library_families().get(key)
    if family is None:
        return None
    if family in _RUNTIME_FAMILIES:
        return LibraryChange("", f"lib{name}: hipcc links the HIP runtime by itself")
    roc = context.roc and family not in context.hip_families
    library = family_libraries(roc).get(family, "")
    if not library:
        return LibraryChange(name, f"no ROCm library translates the {family} family of lib{name}", True)
    return LibraryChange(library, f"lib{name} -> lib{library} (the library the table maps the {family} family to)")


# The CUDA installation as build files name it: a literal path or a variable (make $(X)/${X}, CMake ${X}).
_CUDA_ROOT = re.compile(
    r"""(?P<root>
        /usr/local/cuda(?:-[0-9][0-9.]*)?
      | /opt/cuda(?:-[0-9][0-9.]*)?
      | /usr/lib/cuda
      | \$\((?P<pv>CUDA[A-Z0-9_]*(?:HOME|PATH|DIR|ROOT|PREFIX|INSTALL))\)
      | \$\{(?P<bv>CUDA[A-Z0-9_]*(?:HOME|PATH|DIR|ROOT|PREFIX|INSTALL))\}
      | \$\((?P<pv2>CUDA_(?:INSTALL_PATH|TOOLKIT_ROOT_DIR|TOOLKIT_PATH|TOOLKIT|SDK_PATH))\)
      | \$\{(?P<bv2>CUDA_(?:INSTALL_PATH|TOOLKIT_ROOT_DIR|TOOLKIT_PATH|TOOLKIT|SDK_PATH))\}
    )(?P<rest>/[^\s'"]*)?$""",
    re.VERBOSE,
)
# The installation's subdirectories -> ROCm's (ROCm has no lib64 and no targets/<arch>/ tree).
_SUBDIRS = (
    (re.compile(r"^/targets/[^/]+-linux/(include|lib)(/.*)?$"), r"/\1\2"),
    (re.compile(r"^/lib64(/.*)?$"), r"/lib\1"),
    (re.compile(r"^/lib/x64(/.*)?$"), r"/lib\1"),
)


_FOLDERS = (("LIB", "/lib"), ("INC", "/include"), ("BIN", "/bin"))


def is_cuda_root(text: str) -> bool:
    """Whether ``text`` names the CUDA installation or a path under it."""
    return _CUDA_ROOT.match(text) is not None


def rocm_path(text: str, rocm_root: str) -> str | None:
    """``text`` (a path under the CUDA installation) -> the same under ``rocm_root``; None if not under it."""
    m = _CUDA_ROOT.match(text)
    if m is None:
        return None
    rest = m.group("rest") or ""
    for pattern, replacement in _SUBDIRS:
        if pattern.match(rest):
            rest = pattern.sub(replacement, rest)
            break
    # A variable naming a folder of the installation, not its root ($(CUDA_LIB_DIR), ${CUDA_INC_PATH}): the same
    # folder of ROCm's.
    name = m.group("pv") or m.group("bv") or ""
    folder = next((f for key, f in _FOLDERS if key in name.removeprefix("CUDA")), "")
    return rocm_root + folder + rest


def cuda_path_subdir(text: str) -> str:
    """The part of a CUDA installation path below the root ('' for the root itself)."""
    m = _CUDA_ROOT.match(text)
    return (m.group("rest") or "") if m else ""


@dataclass(frozen=True)
class CMakeTarget:
    target: str  # the imported target to link ("" = none: hip::host comes with the language)
    package: str  # the find_package() name that defines it ("" = none needed)
    reason: str
    hand_work: bool = False


# ROCm's CMake packages: the imported target each library's config file defines (facts of ROCm's
# <lib>-config.cmake files; the table knows libraries, not their CMake spelling).
_CMAKE_TARGETS = {
    "hipblas": "roc::hipblas",
    "hipblaslt": "roc::hipblaslt",
    "hipsparse": "roc::hipsparse",
    "hipsolver": "roc::hipsolver",
    "hipfft": "hip::hipfft",
    "hiprand": "hip::hiprand",
    "hiprtc": "hiprtc::hiprtc",
    "rocblas": "roc::rocblas",
    "rocsparse": "roc::rocsparse",
    "rocsolver": "roc::rocsolver",
    "rocfft": "roc::rocfft",
    "rocrand": "roc::rocrand",
    "MIOpen": "MIOpen",
    "roctx64": "",
    "rccl": "roc::rccl",
}
_CMAKE_PACKAGES = {"MIOpen": "miopen", "hiprtc": "hiprtc"}


# What ROCm's package configs set besides their target (rccl-config.cmake: RCCL_INCLUDE_DIRS, rccl_INCLUDE_DIRS).
_CMAKE_INCLUDE_VARIABLES = {"rccl": "RCCL_INCLUDE_DIRS"}


@dataclass(frozen=True)
class FindModule:
    """A CUDA library's own find module (a project's FindNCCL.cmake) -> the ROCm library's package config."""

    package: str  # find_package(<package>) instead
    target: str  # what <X>_LIBRARIES / <X>_LIBRARY become
    include_variable: str  # what <X>_INCLUDE_DIRS / <X>_INCLUDE_DIR become ("" = left, reported)


def find_module(name: str, context: BuildContext) -> FindModule | None:
    """``find_package(NCCL)`` (``name``: NCCL) -> RCCL's package; None when ``name`` is not a CUDA library or its
    ROCm library has no CMake package. The toolkit's own packages (CUDA, CUDAToolkit) are not libraries here."""
    if name.lower() in ("cuda", "cudatoolkit", "cudart"):
        return None
    change = library_change(name, context)
    target = _CMAKE_TARGETS.get(change.name, "") if change is not None and not change.hand_work else ""
    if change is None or not target:
        return None
    package = _CMAKE_PACKAGES.get(change.name, change.name)
    return FindModule(package, target, _CMAKE_INCLUDE_VARIABLES.get(change.name, ""))


def cmake_target(name: str, context: BuildContext) -> CMakeTarget | None:
    """``CUDA::<lib>`` (FindCUDAToolkit's imported targets) -> ROCm's; None when ``name`` is not one."""
    if not name.startswith("CUDA::"):
        return None
    library = name[len("CUDA::") :]
    key = library.lower()
    if key in ("cudart", "cudart_static", "cuda_driver", "cudadevrt", "culibos"):
        return CMakeTarget("hip::host", "hip", f"{name}: the HIP runtime is hip::host of find_package(hip)")
    change = library_change(library, context)
    if change is None or change.hand_work or not change.name:
        why = change.reason if change is not None else f"{name} is not a CUDA library the table maps"
        return CMakeTarget("", "", why, True)
    target = _CMAKE_TARGETS.get(change.name, "")
    if not target:
        return CMakeTarget("", "", f"{name}: ROCm's {change.name} has no CMake package", True)
    package = _CMAKE_PACKAGES.get(change.name, change.name)
    return CMakeTarget(target, package, f"{name} -> {target} (find_package({package}))")
