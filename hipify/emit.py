"""The one writer: translated files, stdout, diffs, messages and report files.

Workers only compute; the run module hands each :class:`FileResult` to an :class:`Emitter`,
whose one switch over :class:`OutputMode` decides what is written where. Every file write
is atomic (``fileio.write_atomic``).
"""

from __future__ import annotations

import difflib
import shutil
import sys
from dataclasses import dataclass, replace
from enum import Enum, IntEnum
from pathlib import Path
from typing import TextIO

from .codes import UNCONVERTED_CODES
from .fileio import encode, write_atomic
from .findings import DEFAULT_MAX_FINDINGS, FindingsLog
from .model import FileResult, Severity


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
    # For --out-dir: where a file the tool cannot translate is copied as it is (the mirror stays complete).
    copy_unreadable_to: Path | None = None


@dataclass(frozen=True)
class EmitSettings:
    mode: OutputMode
    quiet: bool = False  # only errors on stderr
    show_info: bool = False  # notes (info-level findings) too: -v
    max_findings: int = DEFAULT_MAX_FINDINGS  # findings printed at most (0 = all)


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
    if not result.changed:
        return result.raw  # byte-identical, whatever the encoding details
    return encode(result.text, result.fmt)


def write_result(result: FileResult, dest: Destination) -> bool:
    """Write one result; returns True when a file was (re)written."""
    data = output_bytes(result)
    try:
        if dest.path.exists() and dest.path.read_bytes() == data:
            return False
    except OSError:
        pass
    if dest.backup is not None and not dest.backup.exists():
        shutil.copy2(result.path, dest.backup)  # keep the first, pre-translation copy
    write_atomic(dest.path, data, mode_from=Path(result.path))
    return True


def write_stdout(result: FileResult, stream: TextIO | None = None) -> None:
    data = output_bytes(result)
    target = stream or sys.stdout
    buffer = getattr(target, "buffer", None)
    target.flush()
    if buffer is not None:
        buffer.write(data)
        buffer.flush()
    else:
        target.write(data.decode(result.fmt.encoding, "replace"))


def copy_file(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dst)


def write_report(path: Path, text: str) -> None:
    write_atomic(path, text.encode("utf-8"))


def message(text: str) -> None:
    """One line for the user, on stderr (diagnostics, errors, notes)."""
    print(text, file=sys.stderr)


def check_outcome(result: FileResult) -> Outcome:
    """--check fails for a file that would change or that keeps untranslated CUDA APIs."""
    if result.changed or any(d.code in UNCONVERTED_CODES for d in result.diagnostics):
        return Outcome.FOUND
    return Outcome.OK


class Emitter:
    """Writes or prints one result at a time, in input order."""

    def __init__(self, settings: EmitSettings) -> None:
        self.settings = settings
        # Findings are printed at the end of the run, one per root cause (see hipify.findings).
        self.findings = FindingsLog(settings.show_info, settings.quiet, settings.max_findings)

    def emit(self, result: FileResult, dest: Destination | None = None, explicit: bool = True) -> Outcome:
        """``dest`` is required by the writing modes; ``explicit``: the user named this input."""
        settings = self.settings
        if result.error is not None:
            return self._emit_unreadable(result, dest, explicit)
        self.findings.add(result)
        mode = settings.mode
        if mode == OutputMode.STDOUT:
            write_stdout(result)
        elif mode == OutputMode.DIFF:
            if result.changed:
                sys.stdout.write(unified_diff(result, Path(result.display).as_posix()))
                return Outcome.FOUND
        elif mode == OutputMode.CHECK:
            return check_outcome(result)  # the files that would change are named at the end
        elif mode == OutputMode.EXAMINE:
            pass
        else:  # the writing modes
            assert dest is not None, f"{mode.value} needs a destination"
            if mode == OutputMode.IN_PLACE and not result.changed:
                return Outcome.OK
            try:
                write_result(result, dest)
            except OSError as exc:
                message(f"{result.display}: HPY306 cannot write output: {exc}")
                return Outcome.FAILED
        return Outcome.OK

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
                message(f"{shown}: HPY306 cannot write the compatibility header: {exc}")
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

    def _emit_unreadable(self, result: FileResult, dest: Destination | None, explicit: bool) -> Outcome:
        error = result.error
        assert error is not None
        self.findings.pairs.append((result.path, replace(error, path=result.display)))
        if dest is not None and dest.copy_unreadable_to is not None and error.code in ("HPY301", "HPY302", "HPY304"):
            copy_file(Path(result.path), dest.copy_unreadable_to)
        return Outcome.FAILED if error.severity == Severity.ERROR and explicit else Outcome.OK
