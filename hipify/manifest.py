"""The run manifest: what the last run with the same settings saw and did, so that a run over a tree
that has not changed reads none of the files it already knows.

A manifest is keyed by everything that decides a run's output except the files themselves (tool
version, table and compatibility-catalog digests, options, engine environment, output mode and
destination, inputs as given, working directory). It records, per input file, what ``stat`` said
before the file was read, the project facts its translation was given, what its result added to
the report and findings (:class:`hipify.report.FileEntry`), the other files that translation read
and, in the writing modes, what the output looked like once written. The project model's scans
are kept beside it, in a second file read only when something changed.

A record is trusted only while every fact still holds and the file's modification and change
times are older than the manifest itself: a file changed in the same clock tick as it was
recorded (a change ``stat`` cannot see) is read again. Anything unreadable, of another version
or under another key is no manifest at all: the run takes the ordinary path.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__
from .cache import Stamp, stamps
from .discover import FileStat
from .model import ProjectFacts
from .report import FileEntry
from .writing import write_atomic

if TYPE_CHECKING:
    from .project.graph import Resolved
    from .project.scan import FileScan

_FORMAT = 1  # of the pickled values below; a manifest of another format is ignored


@dataclass(frozen=True)
class Record:
    """One translated file, as the run that translated it saw it."""

    stat: FileStat  # of the input, before it was read
    facts: ProjectFacts  # what its translation was given
    entry: FileEntry  # what its result added to the report and the findings
    compat: tuple[str, ...] = ()  # the compatibility header's entries it relies on
    inputs: tuple[Stamp, ...] = ()  # other files its translation read (a clang parse's headers)
    output: FileStat | None = None  # its output once written (--out-dir, -o)


@dataclass(frozen=True)
class Manifest:
    key: str
    found: tuple[str, ...]  # every input found, as found, in order
    facts: dict[str, ProjectFacts]  # each input's project facts (compatibility include included)
    records: dict[str, Record]  # the inputs whose result can be reused, by path as found
    scanned: dict[str, FileStat | None]  # every file the project model scanned, by file key, before it was read
    resolved: Resolved  # how the project's includes resolved
    format: int = _FORMAT
    written_ns: int = field(default=0, compare=False)  # the manifest file's modification time, once loaded


def run_key(parts: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for part in (str(_FORMAT), __version__, *parts):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


class ManifestStore:
    """Manifests (and the scans beside them) under the result cache's directory."""

    def __init__(self, cache_dir: Path) -> None:
        self.directory = cache_dir / "runs"

    def _path(self, key: str, what: str) -> Path:
        return self.directory / f"{key}.{what}.pickle"

    def load(self, key: str) -> Manifest | None:
        path = self._path(key, "manifest")
        try:
            with open(path, "rb") as handle:
                written_ns = os.fstat(handle.fileno()).st_mtime_ns
                manifest = pickle.load(handle)
        except FileNotFoundError:
            return None
        except Exception:  # unreadable in any way: as if there were none
            _discard(path)
            return None
        if not isinstance(manifest, Manifest) or manifest.format != _FORMAT or manifest.key != key:
            _discard(path)
            return None
        return replace(manifest, written_ns=written_ns)

    def load_scans(self, key: str) -> dict[str, tuple[FileStat, FileScan]]:
        """The scans the manifest's run made (by the path they were asked for); {} when unreadable."""
        path = self._path(key, "scans")
        try:
            with open(path, "rb") as handle:
                scans = pickle.load(handle)
        except Exception:
            return {}
        return scans if isinstance(scans, dict) else {}

    def save(self, manifest: Manifest, scans: dict[str, tuple[FileStat, FileScan]] | None) -> None:
        """Write the manifest (and, when given, its scans) atomically; a cache that cannot be written only
        costs speed. The scans go first: a manifest never refers to older scans than its own."""
        try:
            if scans is not None:
                write_atomic(self._path(manifest.key, "scans"), pickle.dumps(scans, pickle.HIGHEST_PROTOCOL))
            write_atomic(self._path(manifest.key, "manifest"), pickle.dumps(manifest, pickle.HIGHEST_PROTOCOL))
        except (OSError, pickle.PicklingError):
            pass


def current_stat(path: str | Path) -> FileStat | None:
    try:
        return FileStat.of(os.stat(path))
    except OSError:
        return None


class Trust:
    """Which recorded facts still hold, for one manifest (stamps of shared inputs are taken once)."""

    def __init__(self, manifest: Manifest) -> None:
        self.manifest = manifest
        self._stamps: dict[str, Stamp] = {}

    def holds(self, recorded: FileStat | None, now: FileStat | None) -> bool:
        """The file is as recorded, and was last changed before the manifest was written (else a change in
        the same clock tick as the recording could hide behind equal times)."""
        written = self.manifest.written_ns
        return recorded is not None and recorded == now and recorded.mtime_ns < written and recorded.ctime_ns < written

    def inputs_hold(self, inputs: tuple[Stamp, ...]) -> bool:
        for stamp in inputs:
            path = stamp[0]
            if path not in self._stamps:
                (self._stamps[path],) = stamps([path])
            if self._stamps[path] != stamp:
                return False
        return True


def _discard(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
