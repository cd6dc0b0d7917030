"""Corpus programs: one directory each, described by ``corpus.json`` (see corpus/README.md)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .build import build_system

SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hh", ".hpp", ".hxx", ".inl", ".cpp", ".cc", ".cxx", ".c")
COMPILE_SUFFIXES = (".cu", ".cpp", ".cc", ".cxx", ".c")
CUDA_SUFFIXES = (".cu",)  # compiled as HIP (-x hip); the others as plain C++ with the HIP headers


@dataclass(frozen=True)
class Program:
    name: str
    root: Path
    files: tuple[str, ...]  # every source file, relative to root (translated)
    sources: tuple[str, ...]  # the compilation units, relative to root
    include_dirs: tuple[str, ...]  # relative to root
    defines: tuple[str, ...] = ()  # what its build defines (``-D``): ``MYLIB_USE_GPU``, ``N=4``
    cuda_libs: tuple[str, ...] = ()
    hip_libs: tuple[str, ...] = ()
    covers: str = ""
    expected_output: str | None = None
    build_system: str | None = None  # "make" or "cmake": the program has build files of its own
    min_rocm: str = ""  # the oldest ROCm with every API it uses ("7.2"); older toolchains skip it
    run_tolerance: float = 0.0  # how far a run's numbers may be from expected_output.txt's (relative)


def _walk(root: Path) -> list[str]:
    found = []
    for p in sorted(root.rglob("*")):
        if p.is_file() and p.suffix in SOURCE_SUFFIXES:
            found.append(p.relative_to(root).as_posix())
    return found


_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', re.MULTILINE)


def _included_others(root: Path, files: list[str], include_dirs: tuple[str, ...]) -> list[str]:
    """The program's files of other extensions that its sources include (``#include "utils.hu"``): sources too."""
    known, todo, found = set(files), list(files), []
    while todo:
        rel = todo.pop()
        text = (root / rel).read_text(encoding="utf-8", errors="replace")
        for name in _INCLUDE.findall(text):
            for base in (Path(rel).parent.as_posix(), *include_dirs):
                candidate = (root / base / name).resolve()
                if candidate.is_file() and candidate.is_relative_to(root.resolve()):
                    other = candidate.relative_to(root.resolve()).as_posix()
                    if other not in known:
                        known.add(other)
                        found.append(other)
                        todo.append(other)
                    break
    return sorted(found)


def load_program(root: Path) -> Program:
    root = Path(root)
    meta: dict[str, object] = {}
    meta_path = root / "corpus.json"
    if meta_path.is_file():
        meta = json.loads(meta_path.read_text())
    files = _walk(root)
    files += _included_others(root, files, tuple(meta.get("include_dirs") or ["."]))  # type: ignore[arg-type]
    sources: tuple[str, ...] = tuple(
        meta.get("sources")  # type: ignore[arg-type]
        or [f for f in files if f.endswith(COMPILE_SUFFIXES)]
    )
    expected = root / "expected_output.txt"
    return Program(
        name=root.name,
        root=root,
        files=tuple(files),
        sources=sources,
        include_dirs=tuple(meta.get("include_dirs") or ["."]),  # type: ignore[arg-type]
        defines=tuple(meta.get("defines") or ()),  # type: ignore[arg-type]
        cuda_libs=tuple(meta.get("cuda_libs") or ()),  # type: ignore[arg-type]
        hip_libs=tuple(meta.get("hip_libs") or ()),  # type: ignore[arg-type]
        covers=str(meta.get("covers", "")),
        expected_output=expected.read_text() if expected.is_file() else None,
        build_system=build_system(root),
        min_rocm=str(meta.get("min_rocm", "")),
        run_tolerance=float(meta.get("run_tolerance", 0.0)),  # type: ignore[arg-type]
    )


def default_corpus_dir() -> Path:
    """The corpus shipped in the repository (``<repo>/corpus``)."""
    return Path(__file__).resolve().parents[2] / "corpus"


def discover(paths: list[str] | None = None) -> list[Program]:
    """Programs under ``paths``: a program directory, a single .cu file, or a directory of programs."""
    roots = [Path(p) for p in paths] if paths else [default_corpus_dir()]
    programs: list[Program] = []
    for root in roots:
        if root.is_file():
            programs.append(Program(root.stem, root.parent, (root.name,), (root.name,), (".",)))
        elif (root / "corpus.json").is_file() or any(root.glob("*.cu")) or build_system(root):
            programs.append(load_program(root))
        elif root.is_dir():
            for sub in sorted(p for p in root.iterdir() if p.is_dir()):
                if (sub / "corpus.json").is_file() or any(sub.glob("*.cu")) or build_system(sub):
                    programs.append(load_program(sub))
        else:
            raise FileNotFoundError(str(root))
    return programs
