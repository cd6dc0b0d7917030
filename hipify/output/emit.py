"""The one writer: translated files, stdout, diffs, messages and report files.

The run module hands each :class:`FileResult` to an :class:`Emitter`, whose one switch over
:class:`OutputMode` decides what is written where; a tree's files (--out-dir, --in-place) are
written by the worker that translated them with the same routine (:func:`write_file`), and the
emitter takes what that write said (:meth:`Emitter.emit_placed`). Every file write is atomic
(``writing.write_atomic``).
"""

from __future__ import annotations

import difflib
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from enum import Enum, IntEnum
from pathlib import Path
from typing import TextIO

from ..knowledge.codes import ENGINE_CODES, UNCONVERTED_CODES
from ..model import Diagnostic, FileResult, Severity
from ..reports.findings import DEFAULT_MAX_FINDINGS, FindingsLog
from ..reports.report import FileEntry
from ..sources.fileio import SourceError, encode_translation, read_regular
from .writing import copy_atomic, names_after_sweep, write_atomic


class OutputMode(str, Enum):
    STDOUT = "stdout"
    OUTPUT_FILE = "output-file"
    IN_PLACE = "in-place"
    OUT_DIR = "out-dir"
    DIFF = "diff"
    CHECK = "check"
    EXAMINE = "examine"


# Modes that write each translation to a file (the others print, or write nothing).
WRITING_MODES = (OutputMode.OUTPUT_FILE, OutputMode.IN_PLACE, OutputMode.OUT_DIR)


# Findings about a file that the --out-dir mirror still gets a copy of, as it is.
COPIED_AS_IS = ("HPY301", "HPY302", "HPY304", "HPY205")


class Outcome(IntEnum):
    """What emitting one file means for the exit code (the run's code is the largest)."""

    OK = 0  # written, or nothing to do
    FOUND = 1  # --diff / --check found something to change
    FAILED = 2  # an output could not be written, or an explicit input could not be read


@dataclass(frozen=True)
class Destination:
    """Where one input's translation goes (for -o, --out-dir and --in-place)."""

    path: Path
    backup: Path | None = None
    # Rewriting the input itself (--in-place): the file keeps its owner and hard links.
    in_place: bool = False
    # For --out-dir: where a file the tool cannot translate is copied as it is (the mirror stays complete).
    copy_unreadable_to: Path | None = None
    # A file of the --out-dir mirror: a new one need not reach the disk before it appears (the run can write it
    # again; a file it replaces still does).
    mirror: bool = False


@dataclass(frozen=True)
class EmitSettings:
    mode: OutputMode
    quiet: bool = False  # only errors on stderr
    show_info: bool = False  # notes (info-level findings) too: -v
    max_findings: int = DEFAULT_MAX_FINDINGS  # findings printed at most (0 = all)
    # Threads writing files (0: each write done before emit returns). A write waits for its data to reach the
    # disk (fsync) before it replaces the file; writes in flight together share the file system's journal
    # commits, which is what makes a tree's many small files cheap. See Emitter.finish_writes.
    write_threads: int = 0


def unified_diff(result: FileResult, label: str) -> str:
    """A unified diff that `git apply` / `patch -p1` accept, including the no-newline marker."""
    old = result.original.splitlines(keepends=True)
    new = result.text.splitlines(keepends=True)
    lines = list(difflib.unified_diff(old, new, f"a/{label}", f"b/{label}"))
    out: list[str] = []
    for line in lines:
        if line.endswith("\n"):
            out.append(line)
        else:
            out.append(line + "\n\\ No newline at end of file\n")
    if result.fmt.crlf:  # keep the file's line endings inside the hunks
        out = [line if line.startswith(("---", "+++", "@@")) else line.replace("\n", "\r\n") for line in out]
    return "".join(out)


def output_bytes(result: FileResult) -> bytes:
    """The translated file's bytes; unchanged stretches are the original bytes (raises SourceError
    when the encoding cannot carry the translation faithfully)."""
    return encode_translation(result.original, result.text, result.edits, result.raw, result.fmt)


@dataclass(frozen=True)
class Written:
    """What :func:`write_result` did."""

    written: bool  # the destination was (re)written
    backup: Path | None = None  # where the original was kept, when not at ``Destination.backup``


def write_result(result: FileResult, dest: Destination, data: bytes | None = None, new: bool = False) -> Written:
    """Write one result (and, in place, its backup first). Raises OSError; the destination is then unchanged.
    ``new``: the destination did not exist a moment ago (so it is not read first, to leave it alone if it holds
    the same bytes: a new mirror's every file)."""
    data = output_bytes(result) if data is None else data
    if not new and _holds(dest.path, data):
        return Written(False)
    backup = ensure_backup(result, dest.backup) if dest.backup is not None else None
    write_atomic(
        dest.path,
        data,
        like=Path(result.path),
        keep_owner=dest.in_place,
        keep_links=dest.in_place,
        flush_new=not dest.mirror,
    )
    return Written(True, backup if backup != dest.backup else None)


@dataclass(frozen=True)
class Placed:
    """A translation written by the worker that made it (--out-dir, --in-place): what the run still needs of it,
    without its text."""

    entry: FileEntry
    compat: tuple[str, ...]  # entries of the compatibility header it relies on
    inputs: tuple[str, ...]  # other files its translation read
    outcome: Outcome  # of the write
    lines: tuple[str, ...]  # what the write has to say (a failure, a backup kept)
    digest: str = ""  # of the bytes written ("" when nothing was)


def writes_here(mode: OutputMode, result: FileResult) -> bool:
    """Does :meth:`Emitter.emit` write this (readable) result to its destination file?"""
    return mode in (OutputMode.OUTPUT_FILE, OutputMode.OUT_DIR) or (mode == OutputMode.IN_PLACE and result.changed)


def write_file(
    result: FileResult, dest: Destination, quiet: bool, swept: Swept
) -> tuple[Outcome, list[str], bytes | None]:
    """Encode one translation and write it to ``dest``: the outcome, what to tell the user, the bytes written
    (None when nothing was). ``swept``: the directories this process has cleared of dead runs' temporary files."""
    try:
        data = output_bytes(result)
    except SourceError as err:
        return Outcome.FAILED, [failure_line(result.display, f"{err.message}; nothing written", err.code)], None
    held = sweep(dest.path.parent, swept)
    try:
        written = write_result(result, dest, data, new=held is not None and dest.path.name not in held)
    except OSError as exc:
        text = f"cannot write output: {_reason(exc)}; the original is unchanged"
        return Outcome.FAILED, [failure_line(result.display, text)], None
    if written.backup is not None and not quiet:
        text = f"{dest.backup} differs from the file being replaced: kept it; the file was saved as {written.backup}"
        return Outcome.OK, [failure_line(result.display, text, "HPY310", "warning")], data
    return Outcome.OK, [], data


# The directories a process has cleared of dead runs' temporary files, with the names each held then (None: unknown).
Swept = dict[Path, frozenset[str] | None]


def sweep(directory: Path, swept: Swept) -> frozenset[str] | None:
    """Remove what interrupted runs left in a directory we write to (once per directory and process); the names
    it held then (none where it did not exist; None where it could not be read)."""
    if directory in swept:
        return swept[directory]
    held = swept[directory] = names_after_sweep(directory)
    return held


def _holds(path: Path, data: bytes) -> bool:
    try:
        return read_regular(path, len(data)) == data
    except SourceError:
        return False


def ensure_backup(result: FileResult, backup: Path) -> Path:
    """A complete copy of the original before it is replaced; returns where it is.

    An existing backup is trusted only if it is byte-identical to the file being replaced.
    Otherwise (an older original, or something truncated or foreign) it is kept, and the file
    is saved under the first free name ``BACKUP.1``, ``BACKUP.2``, ...: nothing is lost.
    """
    candidate = backup
    number = 0
    while True:
        if not os.path.lexists(candidate):
            write_atomic(candidate, result.raw, like=Path(result.path), keep_owner=True)
            return candidate
        if _holds(candidate, result.raw):
            return candidate
        number += 1
        candidate = backup.with_name(f"{backup.name}.{number}")


def write_stdout(result: FileResult, stream: TextIO | None = None, data: bytes | None = None) -> None:
    data = output_bytes(result) if data is None else data
    target = stream or sys.stdout
    buffer = getattr(target, "buffer", None)
    target.flush()
    if buffer is not None:
        buffer.write(data)
        buffer.flush()
    else:
        target.write(data.decode(result.fmt.encoding, "replace"))


def copy_file(src: Path, dst: Path, mirror: bool = False) -> None:
    """Copy a file as it is (atomically, mode kept; only regular files); ``mirror``: as :attr:`Destination.mirror`."""
    copy_atomic(src, dst, flush_new=not mirror)


def write_report(path: Path, text: str) -> None:
    write_atomic(path, text.encode("utf-8"))


def message(text: str) -> None:
    """One line for the user, on stderr (diagnostics, errors, notes)."""
    print(text, file=sys.stderr)


def check_outcome(result: FileResult | FileEntry) -> Outcome:
    """--check fails for a file that would change or that keeps untranslated CUDA APIs."""
    if result.changed or any(d.code in UNCONVERTED_CODES for d in result.diagnostics):
        return Outcome.FOUND
    return Outcome.OK


def reusable(mode: OutputMode, entry: FileEntry, output_holds: bool) -> bool:
    """Can a result an earlier run emitted be emitted again from its entry alone (no text)? In the modes that
    print nothing per file, yes; a diff only when there is none; a writing mode only while what it wrote is
    still there (in place: nothing was written)."""
    if entry.error is not None or mode == OutputMode.STDOUT:
        return False
    if mode in (OutputMode.DIFF, OutputMode.IN_PLACE):
        return not entry.changed
    if mode in (OutputMode.OUT_DIR, OutputMode.OUTPUT_FILE):
        return output_holds
    return True


class Emitter:
    """Writes or prints one result at a time, in input order. A file that cannot be written is
    reported (HPY306) and the run goes on with the next one."""

    def __init__(self, settings: EmitSettings) -> None:
        self.settings = settings
        self._swept: Swept = {}
        # Findings are printed at the end of the run, one per root cause (see hipify.reports.findings).
        self.findings = FindingsLog(settings.show_info, settings.quiet, settings.max_findings)
        self._pool: ThreadPoolExecutor | None = None
        self._in_flight: list[tuple[Path, Future[tuple[Outcome, list[str]]]]] = []
        self.failed_destinations: set[Path] = set()  # written files whose write failed (known after finish_writes)
        self._lock = threading.Lock()

    def __enter__(self) -> Emitter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the writing threads: a write under way completes (atomically), the ones not begun are dropped."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def finish_writes(self) -> Outcome:
        """Wait for the writes under way; print what they report, in input order; the worst outcome."""
        outcome = Outcome.OK
        for path, future in self._in_flight:
            done, lines = future.result()
            for line in lines:
                message(line)
            if done == Outcome.FAILED:
                self.failed_destinations.add(path)
            outcome = max(outcome, done)
        self._in_flight = []
        return outcome

    def _run_write(self, path: Path, write: Callable[[], tuple[Outcome, list[str]]]) -> Outcome:
        """Run ``write`` now, or hand it to a writing thread (its outcome then comes from :meth:`finish_writes`)."""
        if self.settings.write_threads <= 0:
            done, lines = write()
            for line in lines:
                message(line)
            if done == Outcome.FAILED:
                self.failed_destinations.add(path)
            return done
        with self._lock:  # the run's thread and the thread copying the mirror's other files both write
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.settings.write_threads, thread_name_prefix="hipify-write")
            self._in_flight.append((path, self._pool.submit(write)))
        return Outcome.OK

    def emit(self, result: FileResult, dest: Destination | None = None, explicit: bool = True) -> Outcome:
        """``dest`` is required by the writing modes; ``explicit``: the user named this input."""
        settings = self.settings
        if result.error is not None:
            return self._emit_unreadable(result, dest, explicit)
        self.findings.add(result)
        failed = Outcome.FAILED if any(failed_file(d) for d in result.diagnostics) else Outcome.OK
        mode = settings.mode
        if mode == OutputMode.DIFF:
            if result.changed:
                sys.stdout.write(unified_diff(result, Path(result.display).as_posix()))
                return max(failed, Outcome.FOUND)
        elif mode == OutputMode.CHECK:
            return max(failed, check_outcome(result))  # the files that would change are named at the end
        elif mode != OutputMode.EXAMINE and (mode != OutputMode.IN_PLACE or result.changed):
            return max(failed, self._write(result, dest))
        return failed

    def emit_reused(self, entry: FileEntry, dest: Destination | None = None) -> Outcome:
        """What :meth:`emit` does for the same result, when :func:`reusable` says nothing is to be written."""
        if dest is not None and self.settings.mode in (OutputMode.OUT_DIR, OutputMode.OUTPUT_FILE):
            self._sweep(dest.path.parent)  # as the write :meth:`emit` would have made
        self.findings.pairs.extend((entry.path, d) for d in entry.diagnostics)
        failed = Outcome.FAILED if any(failed_file(d) for d in entry.diagnostics) else Outcome.OK
        if self.settings.mode == OutputMode.CHECK:
            return max(failed, check_outcome(entry))
        return failed

    def _write(self, result: FileResult, dest: Destination | None) -> Outcome:
        if self.settings.mode == OutputMode.STDOUT:
            try:
                data = output_bytes(result)
            except SourceError as err:
                message(failure_line(result.display, f"{err.message}; nothing written", err.code))
                return Outcome.FAILED
            write_stdout(result, data=data)
            return Outcome.OK
        assert dest is not None, f"{self.settings.mode.value} needs a destination"
        quiet = self.settings.quiet
        return self._run_write(dest.path, lambda: write_file(result, dest, quiet, self._swept)[:2])

    def emit_placed(self, placed: Placed, dest: Destination) -> Outcome:
        """What :meth:`emit` does for a translation its worker wrote already (:func:`write_file` there)."""
        self.findings.pairs.extend((placed.entry.path, d) for d in placed.entry.diagnostics)
        failed = Outcome.FAILED if any(failed_file(d) for d in placed.entry.diagnostics) else Outcome.OK
        done: Future[tuple[Outcome, list[str]]] = Future()
        done.set_result((placed.outcome, list(placed.lines)))
        with self._lock:
            self._in_flight.append((dest.path, done))  # its messages come in input order, with the other writes'
        return failed

    def emit_compat_header(self, path: Path, shown: str, text: str) -> Outcome:
        """The compatibility header the translated files include, per the output mode."""
        mode = self.settings.mode
        try:
            current = path.read_text(encoding="utf-8") if path.is_file() else None
        except OSError:
            current = None
        if current == text:
            return Outcome.OK
        if mode in WRITING_MODES:
            try:
                write_atomic(path, text.encode("utf-8"))
            except OSError as exc:
                message(failure_line(shown, f"cannot write the compatibility header: {_reason(exc)}"))
                return Outcome.FAILED
            return Outcome.OK
        if mode == OutputMode.DIFF:
            old = (current or "").splitlines(keepends=True)
            before = f"a/{Path(shown).as_posix()}" if current is not None else "/dev/null"
            sys.stdout.write("".join(difflib.unified_diff(old, text.splitlines(keepends=True), before,
                                                          f"b/{Path(shown).as_posix()}")))  # fmt: skip
            return Outcome.FOUND
        if mode == OutputMode.CHECK:
            if not self.settings.quiet:
                message(f"would write {shown} (the compatibility header the translation includes)")
            return Outcome.FOUND
        if not self.settings.quiet:
            message(f"note: the translation includes {shown}; translate with --out-dir, --in-place or -o to write it")
        return Outcome.OK

    def copy_as_is(self, src: Path, dst: Path) -> Outcome:
        """Copy a file that is not translated (``--copy-other-files``) into the mirror."""
        self._sweep(dst.parent)
        return self._run_write(dst, lambda: _copy(src, dst))

    def _sweep(self, directory: Path) -> None:
        sweep(directory, self._swept)

    def _emit_unreadable(self, result: FileResult, dest: Destination | None, explicit: bool) -> Outcome:
        error = result.error
        assert error is not None
        self.findings.pairs.append((result.path, replace(error, path=result.display)))
        copy_to = dest.copy_unreadable_to if dest is not None else None
        if copy_to is not None and error.code in COPIED_AS_IS:
            self._sweep(copy_to.parent)
            try:
                copy_file(Path(result.path), copy_to, mirror=True)
            except OSError as exc:
                message(failure_line(result.display, f"cannot copy to {copy_to}: {_reason(exc)}"))
                return Outcome.FAILED
            return Outcome.OK
        if self.settings.mode in (OutputMode.STDOUT, OutputMode.OUTPUT_FILE):
            return Outcome.FAILED  # the one output asked for does not exist
        if failed_file(error):
            return Outcome.FAILED
        return Outcome.FAILED if error.severity == Severity.ERROR and explicit else Outcome.OK


def _copy(src: Path, dst: Path) -> tuple[Outcome, list[str]]:
    try:
        copy_file(src, dst, mirror=True)  # only the mirror's other files are copied
    except OSError as exc:
        return Outcome.FAILED, [failure_line(str(src), f"cannot copy to {dst}: {_reason(exc)}")]
    return Outcome.OK, []


def failure_line(path: str, text: str, code: str = "HPY306", severity: str = "error") -> str:
    """An output or input failure, in the findings' form (``path: error: message [HPY306]``)."""
    return f"{path}: {severity}: {text} [{code}]"


def failed_file(diag: Diagnostic) -> bool:
    """An engine error: the file's translation failed (whether or not the user named the file)."""
    return diag.severity == Severity.ERROR and diag.code in ENGINE_CODES


def _reason(exc: OSError) -> str:
    if exc.strerror and exc.filename:
        return f"{exc.strerror}: {exc.filename}"
    return exc.strerror or str(exc)
