"""bench/realcode.py --shim: each program compiled *unmodified*, with the include folder `hipify-py shim
--include-dir` writes for it on the include path, as a single-source project compiles its CUDA code for AMD.

For each selected program the shim reads its sources (its folder and its include folders, as its build files name
them) and writes its include folder to ``.hipify-shim/<program>/`` beside the unmodified tree; the program's
sources are then compiled as the others are, with ``-I`` that folder first. The verdicts go in the same cache (the
key covers the include folder, which lies in the program's include path).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from realcode_programs import Program

from hipify.options import Options
from hipify.shim import plan_shim, render_include_dir
from hipify.sources.discover import DEFAULT_EXTENSIONS
from hipify.sources.fileio import SourceError, read_source

SHIM_FOLDER = ".hipify-shim"
KIND = "shimmed"


def shim_tree(original: Path, programs: Iterable[Program], dest: Path) -> tuple[list[Program], float]:
    """Copy the programs' folders and include folders from ``original`` into ``dest`` unmodified, write each
    program's include folder, and return the programs as they are compiled there (the folder first on the include
    path) and the seconds the shim took."""
    programs = list(programs)
    folders: set[str] = set()
    for p in programs:
        folders.update([p.folder, *p.include_dirs, *(str(Path(s).parent) for s in p.sources)])
    kept = sorted(f for f in folders if (original / f).is_dir() and not f.startswith(".."))
    for folder in kept:
        if not any(folder.startswith(other + "/") for other in kept):
            shutil.copytree(original / folder, dest / folder, symlinks=True, dirs_exist_ok=True)
    dest.mkdir(parents=True, exist_ok=True)
    shimmed: list[Program] = []
    seconds = 0.0
    for p in programs:
        start = time.perf_counter()
        include = f"{SHIM_FOLDER}/{p.name.replace(':', '_')}"
        write_include_folder(dest, p, dest / include)
        seconds += time.perf_counter() - start
        shimmed.append(replace(p, include_dirs=(include, *p.include_dirs)))
    return shimmed, seconds


def write_include_folder(tree: Path, program: Program, folder: Path) -> None:
    """`hipify-py shim --include-dir FOLDER` over the program's sources (its folder and include folders), with its
    build's include folders and macros, as a user would run it on the project."""
    texts: dict[str, str] = {}
    for relative in dict.fromkeys([program.folder, *program.include_dirs]):
        base = tree / relative
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            if path.is_file() and path.suffix in DEFAULT_EXTENSIONS and SHIM_FOLDER not in path.parts:
                try:
                    texts.setdefault(str(path), read_source(path).text)
                except SourceError:
                    continue
    options = Options(include_dirs=tuple(str(tree / d) for d in program.include_dirs), defines=tuple(program.defines))
    files = render_include_dir(plan_shim(texts, options)) if texts else {}
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
