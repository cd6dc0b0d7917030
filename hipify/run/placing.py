"""Translations written by the worker that makes them (--out-dir, --in-place).

A tree's files are translated in worker processes; sending every translation back to the run to be written costs
the run its text three times over (the original, the translation and the raw bytes, pickled, piped and unpickled)
and makes one process write for all. Here the worker writes the file itself, exactly as the run's emitter would
(``hipify.output.emit.write_file``: atomically, backups first), and returns only what the run still needs: the
report's entry, the compatibility entries, the inputs for the manifest and what the write had to say. A file that
cannot be read comes back as its result, for the run to report (and to copy into the mirror as it is).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..model import FileResult, FileTask
from ..output.emit import Destination, Outcome, OutputMode, Placed, Swept, write_file, writes_here
from ..reports.report import FileEntry
from ..translation.pipeline import process

# The destination directories this worker has cleared of dead runs' temporary files.
_swept: Swept = {}


@dataclass(frozen=True)
class WriteOrder:
    """Translate ``task`` and write it to ``dest`` as ``mode`` says."""

    task: FileTask
    dest: Destination
    mode: OutputMode
    quiet: bool

    @property
    def path(self) -> str:
        return self.task.path


def translate_and_write(order: WriteOrder) -> FileResult | Placed:
    result = process(order.task)
    if result.error is not None:
        return result
    entry = FileEntry.of(result)
    if not writes_here(order.mode, result):
        return Placed(entry, result.compat, result.inputs, Outcome.OK, ())
    outcome, lines, data = write_file(result, order.dest, order.quiet, _swept)
    digest = hashlib.sha256(data).hexdigest() if data is not None else ""
    return Placed(entry, result.compat, result.inputs, outcome, tuple(lines), digest)
