"""Writing results: the only module (with report printing in cli) that writes files or prints output."""

from __future__ import annotations

import difflib
import shutil
import sys
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TextIO

from .fileio import encode, write_atomic
from .pipeline import FileResult


class OutputMode(str, Enum):
    STDOUT = "stdout"
    OUTPUT_FILE = "output-file"
    IN_PLACE = "in-place"
    OUT_DIR = "out-dir"
    DIFF = "diff"
    CHECK = "check"
    EXAMINE = "examine"


@dataclass(frozen=True)
class Destination:
    """Where one input's translation goes (for -o, --out-dir and --in-place)."""

    path: Path | None
    backup: Path | None = None


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
    assert dest.path is not None
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
