"""The other files of the input trees (build files, data), copied into the mirror so that it builds."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from ..output.emit import Emitter, Outcome, message
from ..sources.discover import Found, discover
from .destinations import _absolute, _inside
from .request import RunConfig


def _copy_others(
    config: RunConfig, found: list[Found], out_dir: Path, dest_root: Path, emitter: Emitter
) -> tuple[Outcome, int]:
    """Mirror every other file of the input directories (build files, data), so the mirror builds; returns the
    outcome and how many files the mirror holds. The copies are handed to the emitter's writing threads."""
    sources = {f.real for f in found}
    real_out = out_dir.resolve()
    directories = [Path(p) for p in config.paths if os.path.isdir(p)]
    others, problems = discover(directories, (), config.exclude, config.use_gitignore)
    outcome = Outcome.OK
    copied = 0
    for problem in problems:
        if not config.quiet or problem.fatal:
            message(f"{problem.path}: {'error' if problem.fatal else 'note'}: {problem.message}")
    for item in others:
        if item.real in sources or _inside(item.resolved, real_out):
            continue
        target = out_dir / _absolute(item.path).relative_to(dest_root)
        if not _same_copy(item.path, target):  # a mirror kept up to date copies only what changed
            outcome = max(outcome, emitter.copy_as_is(item.path, target))
        copied += 1
    return outcome, copied  # the copies' own outcomes come with the emitter's other writes (finish_writes)


def _same_copy(src: Path, dst: Path) -> bool:
    """``dst`` is a copy of ``src`` made earlier (copies keep the modification time)."""
    try:
        a, b = src.stat(), dst.stat()
    except OSError:
        return False
    return a.st_size == b.st_size and a.st_mtime_ns == b.st_mtime_ns


class _Copying:
    """:func:`_copy_others` in a thread of its own, from now on; :meth:`result` waits for it."""

    def __init__(self, config: RunConfig, found: list[Found], out_dir: Path, dest_root: Path, emitter: Emitter) -> None:
        self._done: tuple[Outcome, int] = (Outcome.FAILED, 0)
        self._error: BaseException | None = None

        def work() -> None:
            try:
                self._done = _copy_others(config, found, out_dir, dest_root, emitter)
            except BaseException as exc:  # raised again in the run's thread
                self._error = exc

        self._thread = threading.Thread(target=work, name="hipify-copy-others", daemon=True)
        self._thread.start()

    def result(self) -> tuple[Outcome, int]:
        """The outcome of handing out the copies and how many files the mirror holds (the copies themselves are
        finished with the emitter's other writes)."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._done
