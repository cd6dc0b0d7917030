"""Finding source files: explicit files always, directories walked by extension,
honouring .gitignore files (pathspec) and --exclude globs, safe against symlink loops."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pathspec

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


def _gitignore_spec(directory: Path) -> pathspec.PathSpec | None:
    ignore_file = directory / ".gitignore"
    try:
        lines = ignore_file.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return pathspec.GitIgnoreSpec.from_lines(lines)


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
        if arg.is_dir():
            for item in _walk(arg, extensions, exclude_spec, use_gitignore, problems):
                key = item.path.resolve()
                if key not in seen_files:
                    seen_files.add(key)
                    found.append(item)
        elif arg.exists() or arg.is_symlink():
            if not arg.exists():
                problems.append(Problem(arg, "broken symbolic link"))
                continue
            key = arg.resolve()
            if key not in seen_files:
                seen_files.add(key)
                found.append(Found(arg, arg.parent, Path(arg.name), True))
        else:
            problems.append(Problem(arg, "no such file or directory"))
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
            problems.append(Problem(directory, "symbolic link loop (directory already visited); skipped"))
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
            if not path.exists():
                problems.append(Problem(path, "broken symbolic link"))
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
