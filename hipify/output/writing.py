"""Writing files so that nothing is lost or half-written (the guarantees of docs/guarantees.md).

- A file is written to a temporary file in its directory (``.NAME.PID.N.hipify-tmp``),
  flushed to disk, then renamed over the target: readers see the old or the new file, never
  half of one, and a full disk or an interrupt leaves the old file as it was.
- In place, a file keeps its owner, group and mode; a file with other hard links, or whose
  owner cannot be given to a new file, is rewritten in its own inode instead (its links and
  owner stay); should that write fail, the previous content is written back.
- Temporary files of runs that did not finish (their process is gone) are removed the next
  time a run writes to that directory.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import stat
import tempfile
import threading
import time
from pathlib import Path

from ..sources.fileio import TEMP_SUFFIX, file_kind

_CHUNK = 1 << 20
# A temporary file without a process id (older versions) is stale once it is this old.
_STALE_AFTER_S = 60.0
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def write_atomic(
    path: Path,
    data: bytes,
    like: Path | None = None,
    keep_owner: bool = False,
    keep_links: bool = False,
    flush_new: bool = True,
) -> None:
    """Replace ``path`` with ``data``.

    The new file takes the permission bits of ``like`` (the input) when given, else of the file
    it replaces. ``keep_owner``: also its owner and group. ``keep_links``: a file with other
    hard links is rewritten in its inode, so that every link sees the new content. The data reaches
    the disk before the rename; ``flush_new=False``: unless nothing is replaced (a new file of a
    mirror the run can write again, where waiting for the disk is most of a small file's cost).
    """
    meta = _stat(like) or _stat(path)
    replaced = _lstat(path)
    if keep_links and replaced is not None and stat.S_ISREG(replaced.st_mode) and replaced.st_nlink > 1:
        rewrite_inode(path, data)
        return
    with _interrupt_deferred():
        fd, tmp = _temporary(path)
        try:
            try:
                _write_all(fd, data)
                if flush_new or replaced is not None:
                    os.fsync(fd)
                if meta is not None and _FCHMOD:
                    os.fchmod(fd, stat.S_IMODE(meta.st_mode))
            finally:
                os.close(fd)
            if meta is not None:
                if not _FCHMOD:  # (Windows before Python 3.13)
                    os.chmod(tmp, stat.S_IMODE(meta.st_mode))
                owned = not keep_owner or _give_owner(tmp, meta)
                if not owned and keep_links and replaced is not None and stat.S_ISREG(replaced.st_mode):
                    os.unlink(tmp)
                    rewrite_inode(path, data)  # the only way to keep an owner we cannot give
                    return
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
_serials = itertools.count()  # of this process's temporary files (forked workers differ by their pid)


def _temporary(path: Path) -> tuple[int, str]:
    """A new temporary file beside ``path`` (its directory made first where missing: asked only then, since a
    tree's files mostly go to directories that exist)."""
    try:
        return _create_beside(path)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        return _create_beside(path)


def _create_beside(path: Path) -> tuple[int, str]:
    """``.NAME.PID.N.hipify-tmp`` beside ``path`` (the process id tells a dead run's file from a live one's; N counts
    this process's files), created exclusively, never through a link. A name taken already (a dead process of the
    same id left it) moves on to the next; after a few, the name is a random one."""
    directory = os.fspath(path.parent)
    head = f".{path.name}.{os.getpid()}."
    prefix = os.path.join(directory, head)
    for _ in range(8):
        name = f"{prefix}{next(_serials)}{TEMP_SUFFIX}"
        try:
            return os.open(name, _CREATE_FLAGS, 0o600), name
        except FileExistsError:
            continue
    return tempfile.mkstemp(prefix=head, suffix=TEMP_SUFFIX, dir=directory)


class _InterruptDeferred:
    """Ctrl-C (SIGINT) and SIGTERM arrive after the block, not inside it: a KeyboardInterrupt raised between
    creating a temporary file and the ``try`` that removes it (inside ``mkstemp``, say) would leave the file
    behind, and a worker process writing a translation is ended with SIGTERM (it dies once its write is whole).
    A class, not a generator context manager: it is entered for every file written.

    Python runs a signal's handler in the main thread only, so only there is anything deferred. A thread alone in
    its process (a worker) blocks the signals: the kernel keeps them pending until it unblocks them. Beside other
    threads (the run's writing threads), blocking is not enough: Ctrl-C is sent to the whole process, the kernel
    hands it to a thread that does not block it, and Python then calls the main thread's handler at its next
    instruction all the same. There the handlers are replaced for the block by one that notes the signal, which is
    raised again after it (dearer: setting a handler costs a few microseconds). SIGINT's handler is set first and
    put back last, so that a Ctrl-C never finds the other changed and its own not yet."""

    __slots__ = ("_blocked", "_noted", "_previous")

    def __enter__(self) -> None:
        self._blocked: set[int | signal.Signals] | None = None
        self._previous: dict[int, object] = {}
        self._noted: list[int] = []
        if threading.current_thread() is not threading.main_thread():
            return
        if threading.active_count() == 1 and _SIGMASK:
            self._blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _DEFERRED)
            return
        for signum in _DEFERRED:
            previous = signal.getsignal(signum)
            if previous is not None:  # (None: a handler set outside Python, which could not be put back)
                self._previous[signum] = previous
                signal.signal(signum, self._note)

    def _note(self, signum: int, frame: object) -> None:
        self._noted.append(signum)

    def __exit__(self, *exc: object) -> None:
        if self._blocked is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self._blocked)
            return
        for signum in reversed(self._previous):
            signal.signal(signum, self._previous[signum])  # type: ignore[arg-type]
        for signum in reversed(_DEFERRED):  # SIGTERM first: a process it ends has no Ctrl-C left to handle
            if signum in self._noted:
                signal.raise_signal(signum)  # to this thread, now: as if it had come after the block


_SIGMASK = hasattr(signal, "pthread_sigmask")
_FCHMOD = hasattr(os, "fchmod")
_DEFERRED = (signal.SIGINT, signal.SIGTERM)  # in the order their handlers are replaced
_interrupt_deferred = _InterruptDeferred


def _give_owner(path: str, meta: os.stat_result) -> bool:
    """Give ``path`` the owner and group of ``meta``; False when not permitted."""
    current = os.stat(path)
    if (current.st_uid, current.st_gid) == (meta.st_uid, meta.st_gid):
        return True
    try:
        os.chown(path, meta.st_uid, meta.st_gid)
    except PermissionError:
        return False
    return True


def rewrite_inode(path: Path, data: bytes) -> None:
    """Write ``data`` into the existing file itself (links, owner, ACLs stay); on failure the
    previous content is written back, which fits where it was."""
    fd = os.open(path, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
    try:
        previous = _read_all(fd)
        try:
            _replace_content(fd, data)
        except BaseException:
            with contextlib.suppress(OSError):
                _replace_content(fd, previous)
            raise
    finally:
        os.close(fd)


def _replace_content(fd: int, data: bytes) -> None:
    os.lseek(fd, 0, os.SEEK_SET)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.ftruncate(fd, len(data))
    os.fsync(fd)


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, _CHUNK):
        chunks.append(chunk)
    return b"".join(chunks)


def copy_atomic(src: Path, dst: Path, flush_new: bool = True) -> None:
    """Copy a regular file (never a FIFO or a device) to ``dst`` atomically, keeping its mode and modification
    time (a mirror kept up to date compares them to copy only what changed). ``flush_new``: as for
    :func:`write_atomic`."""
    fd = os.open(src, _READ_FLAGS)
    try:
        meta = os.fstat(fd)
        if not stat.S_ISREG(meta.st_mode):
            raise OSError(f"{src} is {file_kind(meta.st_mode)}; not copied")
        flush = flush_new or os.path.lexists(dst)
        with _interrupt_deferred():
            out, tmp = _temporary(dst)
            try:
                with os.fdopen(out, "wb") as handle:
                    while chunk := os.read(fd, _CHUNK):
                        handle.write(chunk)
                    handle.flush()
                    if flush:
                        os.fsync(handle.fileno())
                os.chmod(tmp, stat.S_IMODE(meta.st_mode))
                os.utime(tmp, ns=(meta.st_atime_ns, meta.st_mtime_ns))
                os.replace(tmp, dst)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
    finally:
        os.close(fd)


def names_after_sweep(directory: Path) -> frozenset[str] | None:
    """Remove the temporary files an interrupted run left in ``directory`` (not those of live runs); the names
    ``directory`` holds then: none where it does not exist, None where it cannot be read (unknown)."""
    try:
        with os.scandir(directory) as listing:
            entries = list(listing)
    except FileNotFoundError:
        return frozenset()
    except OSError:
        return None
    names = {e.name for e in entries}
    for entry in entries:
        if entry.name.startswith(".") and entry.name.endswith(TEMP_SUFFIX) and _is_stale(entry):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                names.discard(entry.name)
    return frozenset(names)


def _is_stale(entry: os.DirEntry[str]) -> bool:
    parts = entry.name[: -len(TEMP_SUFFIX)].rsplit(".", 2)
    pid = int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else 0
    if pid:
        if pid == os.getpid():
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False  # alive, someone else's
        return False
    try:
        return time.time() - entry.stat(follow_symlinks=False).st_mtime > _STALE_AFTER_S
    except OSError:
        return False


def _stat(path: Path | None) -> os.stat_result | None:
    if path is None:
        return None
    try:
        return os.stat(path)
    except OSError:
        return None


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except OSError:
        return None
