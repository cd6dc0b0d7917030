"""Finding source files: explicit files always, directories walked by extension,
honouring .gitignore files (pathspec) and --exclude globs, safe against symlink loops.

A walk yields regular files only: a FIFO, a device or a dangling symbolic link met on the way
is noted and skipped (it is not an input the user named, so it does not fail the run).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pathspec

from .fileio import SourceError, file_kind, read_regular
from .writing import TEMP_SUFFIX

DEFAULT_EXTENSIONS = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hxx", ".inl")
ALWAYS_SKIPPED_DIRS = {".git", ".hg", ".svn", "__pycache__"}


@dataclass(frozen=True)
class Found:
    path: Path  # the file to read
    root: Path  # the argument it was found under (for mirrors)
    relative: Path  # path relative to root (file name alone for explicit files)
    explicit: bool  # named on the command line


@dataclass(frozen=True)
class Problem:
    path: Path
    message: str
    fatal: bool = True  # an input could not be used (exit code 2); else a note about a skipped entry


_GITIGNORE_MAX = 1 << 20


def _gitignore_spec(directory: Path) -> pathspec.PathSpec | None:
    try:
        raw = read_regular(directory / ".gitignore", _GITIGNORE_MAX)
    except SourceError:
        return None
    return pathspec.GitIgnoreSpec.from_lines(raw.decode("utf-8", "replace").splitlines())


def discover(
    paths: list[Path],
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS,
    exclude: tuple[str, ...] = (),
    use_gitignore: bool = True,
) -> tuple[list[Found], list[Problem]]:
    found: list[Found] = []
    problems: list[Problem] = []
    exclude_spec = pathspec.GitIgnoreSpec.from_lines(exclude) if exclude else None
    seen_files: set[Path] = set()
    for arg in paths:
        try:
            st = os.stat(arg)
        except FileNotFoundError:
            message = "broken symbolic link" if os.path.islink(arg) else "no such file or directory"
            problems.append(Problem(arg, message))
            continue
        except OSError as exc:
            problems.append(Problem(arg, f"cannot access: {exc.strerror or exc}"))
            continue
        if stat.S_ISDIR(st.st_mode):
            for item in _walk(arg, extensions, exclude_spec, use_gitignore, problems):
                key = item.path.resolve()
                if key not in seen_files:
                    seen_files.add(key)
                    found.append(item)
        else:  # named by the user: read (or refused, with a finding) like any input
            key = arg.resolve()
            if key not in seen_files:
                seen_files.add(key)
                found.append(Found(arg, arg.parent, Path(arg.name), True))
    return found, problems


def _walk(
    root: Path,
    extensions: tuple[str, ...],
    exclude_spec: pathspec.PathSpec | None,
    use_gitignore: bool,
    problems: list[Problem],
) -> Iterator[Found]:
    visited: set[tuple[int, int]] = set()
    # Stack of (directory, [(base_dir, spec), ...]) — each level inherits its parents' ignore specs.
    stack: list[tuple[Path, list[tuple[Path, pathspec.PathSpec]]]] = [(root, [])]
    while stack:
        directory, specs = stack.pop()
        try:
            st = directory.stat()
        except OSError as exc:
            problems.append(Problem(directory, f"cannot read directory: {exc.strerror}"))
            continue
        if (st.st_dev, st.st_ino) in visited:
            problems.append(Problem(directory, "symbolic link loop (directory already visited); skipped", fatal=False))
            continue
        visited.add((st.st_dev, st.st_ino))
        if use_gitignore:
            spec = _gitignore_spec(directory)
            if spec is not None:
                specs = specs + [(directory, spec)]
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as exc:
            problems.append(Problem(directory, f"cannot list directory: {exc.strerror}"))
            continue
        subdirs: list[Path] = []
        for entry in entries:
            path = Path(entry.path)
            relative = path.relative_to(root)
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if _ignored(path, relative, is_dir, specs, exclude_spec):
                continue
            if is_dir:
                if entry.name not in ALWAYS_SKIPPED_DIRS:
                    subdirs.append(path)
                continue
            if extensions and path.suffix.lower() not in extensions:
                continue  # an empty extension list means every file (--copy-other-files)
            if entry.name.endswith(TEMP_SUFFIX):
                continue  # an interrupted write's leftover, removed by the next run writing here
            try:
                mode = entry.stat().st_mode
            except OSError as exc:
                broken = isinstance(exc, FileNotFoundError) and entry.is_symlink()
                problems.append(
                    Problem(
                        path,
                        "broken symbolic link; skipped" if broken else f"cannot read: {exc.strerror}; skipped",
                        fatal=False,
                    )
                )
                continue
            if not stat.S_ISREG(mode):
                problems.append(Problem(path, f"not a regular file ({file_kind(mode)}); skipped", fatal=False))
                continue
            yield Found(path, root, relative, False)
        for sub in reversed(subdirs):
            stack.append((sub, specs))


def _ignored(
    path: Path,
    relative: Path,
    is_dir: bool,
    specs: list[tuple[Path, pathspec.PathSpec]],
    exclude_spec: pathspec.PathSpec | None,
) -> bool:
    suffix = "/" if is_dir else ""
    if exclude_spec is not None and exclude_spec.match_file(relative.as_posix() + suffix):
        return True
    for base, spec in specs:
        rel = path.relative_to(base).as_posix() + suffix
        if spec.match_file(rel):
            return True
    return False
