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
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..buildfiles.dispatch import kind_of
from .fileio import TEMP_SUFFIX, SourceError, file_kind, read_regular

if TYPE_CHECKING:
    import pathspec

DEFAULT_EXTENSIONS = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hxx", ".inl")
ALWAYS_SKIPPED_DIRS = {".git", ".hg", ".svn", "__pycache__"}


class FileStat(NamedTuple):
    """What ``stat`` says of a file: a later run that sees the same facts may trust what it recorded."""

    size: int
    mtime_ns: int
    inode: int
    ctime_ns: int

    @classmethod
    def of(cls, st: os.stat_result) -> FileStat:
        return cls(st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


@dataclass(frozen=True)
class Found:
    path: Path  # the file to read
    root: Path  # the argument it was found under (for mirrors)
    relative: Path  # path relative to root (file name alone for explicit files)
    explicit: bool  # named on the command line
    real: str = ""  # the path with symbolic links and ".." resolved (os.path.realpath), found without a lookup
    stat: FileStat | None = None  # taken before the file is read: a change after it shows in the next run

    @cached_property
    def resolved(self) -> Path:
        """``path.resolve()``, from what the walk already knew."""
        return Path(self.real) if self.real else self.path.resolve()


def without_backups(found: list[Found], backup_suffix: str) -> list[Found]:
    """Leave out what a walk found only because ``Makefile.<suffix>`` is named like a build file: the backups an
    in-place run keeps (``Makefile.prehip``)."""
    if not backup_suffix:
        return found
    return [f for f in found if f.explicit or not (f.path.name.endswith(backup_suffix) and kind_of(str(f.path)))]


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
    import pathspec  # only where a tree has ignore files (an import of some 40 ms)

    return pathspec.GitIgnoreSpec.from_lines(raw.decode("utf-8", "replace").splitlines())


def discover(
    paths: list[Path],
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS,
    exclude: tuple[str, ...] = (),
    use_gitignore: bool = True,
    build_files: bool = False,
    others: list[Found] | None = None,
) -> tuple[list[Found], list[Problem]]:
    """The files under ``paths`` with one of ``extensions`` (every file when empty); with ``build_files``, the
    build files a translator exists for too (Makefile, *.mk, CMakeLists.txt, ...: ``hipify.buildfiles``).
    ``others`` receives the files of the walked directories left out only for their extension (not looked at:
    no ``stat``), among which a source may find a header of its own (``#include <lib/utils.hu>``)."""
    found: list[Found] = []
    problems: list[Problem] = []
    exclude_spec = _exclude_spec(exclude)
    seen_files: set[str] = set()  # real paths
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
            for item in _walk(arg, extensions, exclude_spec, use_gitignore, problems, build_files, others):
                if item.real not in seen_files:
                    seen_files.add(item.real)
                    found.append(item)
        else:  # named by the user: read (or refused, with a finding) like any input
            key = str(arg.resolve())
            if key not in seen_files:
                seen_files.add(key)
                found.append(Found(arg, arg.parent, Path(arg.name), True, key, FileStat.of(st)))
    return found, problems


def _exclude_spec(exclude: tuple[str, ...]) -> pathspec.PathSpec | None:
    if not exclude:
        return None
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(exclude)


def _walk(
    root: Path,
    extensions: tuple[str, ...],
    exclude_spec: pathspec.PathSpec | None,
    use_gitignore: bool,
    problems: list[Problem],
    build_files: bool = False,
    others: list[Found] | None = None,
) -> Iterator[Found]:
    visited: set[tuple[int, int]] = set()
    # Stack of (directory, its real path, [(base_dir, spec), ...]) — each level inherits its parents' ignore specs.
    # A real path is looked up once per directory reached through a symbolic link, not once per file.
    stack: list[tuple[Path, str, list[tuple[Path, pathspec.PathSpec]]]] = [(root, os.path.realpath(root), [])]
    while stack:
        directory, real_dir, specs = stack.pop()
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
        subdirs: list[tuple[Path, str]] = []
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
                    subdirs.append((path, _real(entry, real_dir)))
                continue
            if extensions and path.suffix.lower() not in extensions and not (build_files and kind_of(entry.name)):
                if others is not None:
                    others.append(Found(path, root, relative, False, _real(entry, real_dir)))
                continue  # an empty extension list means every file (--copy-other-files)
            if entry.name.endswith(TEMP_SUFFIX):
                continue  # an interrupted write's leftover, removed by the next run writing here
            try:
                st = entry.stat()
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
            if not stat.S_ISREG(st.st_mode):
                problems.append(Problem(path, f"not a regular file ({file_kind(st.st_mode)}); skipped", fatal=False))
                continue
            yield Found(path, root, relative, False, _real(entry, real_dir), FileStat.of(st))
        for sub, real_sub in reversed(subdirs):
            stack.append((sub, real_sub, specs))


def _real(entry: os.DirEntry[str], real_dir: str) -> str:
    """The real path of a directory entry: its name under its directory's real path, unless it is a link."""
    try:
        link = entry.is_symlink()
    except OSError:
        link = True
    return os.path.realpath(entry.path) if link else os.path.join(real_dir, entry.name)


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
