"""Where each translation goes: the mirror's root, renamed suffixes, in-place targets, what is not an input."""

from __future__ import annotations

import functools
import os
from pathlib import Path

from ..output.emit import WRITING_MODES, Destination, OutputMode
from ..sources.discover import Found, Problem
from .request import RunConfig


class MirrorDirs:
    """The --out-dir mirror's directory for each input directory, worked out once per run: a tree's files share
    a few hundred directories, and pathlib's arithmetic for every file cost the run's process ~40 µs a file."""

    def __init__(self, out_dir: Path, root: Path) -> None:
        self.out_dir = out_dir
        self.root = root  # the directory whose layout the mirror reproduces (_mirror_root)
        self._known: dict[str, Path] = {}

    def of(self, item: Found) -> Path:
        """The mirror's directory for ``item`` (a renamed suffix does not move a file)."""
        directory = os.path.dirname(item.path)
        found = self._known.get(directory)
        if found is None:
            found = self._known[directory] = self.out_dir / _absolute(Path(directory)).relative_to(self.root)
        return found


def _output_path(item: Found, config: RunConfig, mirror: MirrorDirs | None, renames: dict[str, str]) -> Path:
    if config.mode == OutputMode.OUTPUT_FILE:
        return Path(config.output).resolve()
    if mirror is not None:
        return _renamed(mirror.of(item) / item.path.name, renames)
    return item.resolved


def _output_dir(item: Found, config: RunConfig, mirror: MirrorDirs | None) -> Path:
    """The directory :func:`_output_path` puts ``item`` in."""
    if config.mode != OutputMode.OUTPUT_FILE and mirror is not None:
        return mirror.of(item)
    return _output_path(item, config, mirror, {}).parent


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def _display(found: Found) -> str:
    """The path as messages show it: relative to the working directory."""
    path = str(found.path)
    cwd = os.getcwd()
    if path.startswith(cwd) and path[len(cwd) : len(cwd) + 1] == os.sep and "/." not in path and "//" not in path:
        return path[len(cwd) + 1 :]  # what relpath gives, without its arithmetic (a file under the directory)
    directory, name = os.path.split(path)
    if name not in ("", ".", ".."):  # relpath's arithmetic once per directory: a tree outside the working one
        shown = _relative_directory(directory or os.curdir, cwd)
        if shown is not None:
            return name if shown == os.curdir else os.path.join(shown, name)
    try:
        return os.path.relpath(path)
    except ValueError:
        return path


@functools.lru_cache(maxsize=4096)
def _relative_directory(directory: str, cwd: str) -> str | None:
    """``directory`` relative to ``cwd`` (None where there is no such path: another drive)."""
    try:
        return os.path.relpath(directory, cwd)
    except ValueError:
        return None


def _inside(path: Path, directory: Path) -> bool:
    """``path`` is ``directory`` or lies under it (both absolute and normalized; compared as text, which is what
    ``directory in path.parents`` does, without building every parent)."""
    inner, outer = str(path), str(directory)
    return inner == outer or inner.startswith(outer if outer.endswith(os.sep) else outer + os.sep)


def _absolute(path: Path) -> Path:
    """Absolute, ``..`` folded, symbolic links *not* followed (the tree as the user sees it)."""
    return Path(os.path.abspath(path))


def _mirror_root(found: list[Found]) -> Path:
    """The directory whose layout --out-dir reproduces (as walked: links inside it are not resolved,
    so a link pointing out of the tree is mirrored where it is)."""
    roots = {_absolute(root) for root in {f.root for f in found}}  # each tree's root made absolute once
    if len(roots) == 1:
        return roots.pop()
    return Path(os.path.commonpath([str(r) for r in roots]))


def _without_own_output(found: list[Found], out_dir: Path) -> list[Found]:
    """Leave out an earlier run's output when --out-dir lies inside a tree being walked."""
    real_out = out_dir.resolve()
    roots = {root: root.resolve() for root in {item.root for item in found}}
    kept = []
    for item in found:
        root = roots[item.root]
        if not item.explicit and real_out != root and _inside(real_out, root) and _inside(item.resolved, real_out):
            continue
        kept.append(item)
    return kept


def _inside_walked_trees(found: list[Found]) -> tuple[list[Found], list[Problem]]:
    """In place, a walk follows a symbolic link only to a file inside the tree it walks (HPY309)."""
    kept: list[Found] = []
    outside: list[Problem] = []
    roots = {root: root.resolve() for root in {item.root for item in found}}
    for item in found:
        real = item.resolved
        if item.explicit or _inside(real, roots[item.root]):
            kept.append(item)
        else:
            outside.append(
                Problem(item.path, f"HPY309 symbolic link to {real}, outside {item.root}; not followed", fatal=False)
            )
    return kept, outside


def _renamed(path: Path, renames: dict[str, str]) -> Path:
    new_suffix = renames.get(path.suffix)
    return path.with_suffix(new_suffix) if new_suffix else path


def _include_renames(found: list[Found], renames: dict[str, str]) -> tuple[tuple[str, str], ...]:
    pairs = {f.path.name: _renamed(f.path, renames).name for f in found}
    return tuple(sorted((old, new) for old, new in pairs.items() if old != new))


def _destination(
    item: Found, config: RunConfig, mirror: MirrorDirs | None, renames: dict[str, str]
) -> Destination | None:
    mode = config.mode
    if mode not in WRITING_MODES:
        return None
    if mode == OutputMode.OUTPUT_FILE:
        return Destination(Path(config.output))
    if mode == OutputMode.IN_PLACE:  # a symbolic link is followed: its target is translated, the link stays
        real = item.resolved
        suffix = config.backup_suffix
        return Destination(real, real.with_name(real.name + suffix) if suffix else None, in_place=True)
    assert mirror is not None
    copy = mirror.of(item) / item.path.name
    return Destination(_renamed(copy, renames), copy_unreadable_to=copy, mirror=True)
