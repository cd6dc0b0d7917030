"""The run manifest: what the last run with the same settings saw and did, so that a run over a tree
that has not changed reads none of the files it already knows.

A manifest is keyed by everything that decides a run's output except the files themselves (tool
version, table and compatibility-catalog digests, options, engine environment, output mode and
destination, inputs as given, working directory). It records, per input file, what ``stat`` said
before the file was read, the project facts its translation was given, what its result added to
the report and findings (:class:`hipify.reports.report.FileEntry`), the other files that translation read
and, in the writing modes, what the output looked like once written. The project model's scans
are kept beside it, in a second file read only when something changed.

A record is trusted only while every fact still holds and the file had last changed a clock tick
before the run that recorded it looked at it: a change made later in that same tick would leave
every fact as it was (the "racy clean" case of git's index), so such a file is read again by the
next run. Anything unreadable, of another version or under another key is no manifest at all: the
run takes the ordinary path.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..machinery.cache import Stamp, stamps, tool_identity
from ..model import ProjectFacts
from ..output.emit import Destination, OutputMode, reusable
from ..output.writing import write_atomic
from ..reports.report import FileEntry
from ..sources.discover import FileStat, Found

if TYPE_CHECKING:
    from ..project.graph import Resolved
    from ..project.scan import FileScan

_FORMAT = 2  # of the pickled values below; a manifest of another format is ignored


@dataclass(frozen=True)
class Record:
    """One translated file, as the run that translated it saw it."""

    stat: FileStat  # of the input, before it was read
    facts: ProjectFacts  # what its translation was given
    entry: FileEntry  # what its result added to the report and the findings
    compat: tuple[str, ...] = ()  # the compatibility header's entries it relies on
    inputs: tuple[Stamp, ...] = ()  # other files its translation read (a clang parse's headers)
    output: FileStat | None = None  # its output once written (--out-dir, -o)
    # The output's digest, when it was written so shortly before the run ended that a change in the same clock
    # tick could hide behind its times: the next run compares the content instead.
    output_digest: str = ""


@dataclass(frozen=True)
class Manifest:
    key: str
    found: tuple[str, ...]  # every input found, as found, in order
    facts: dict[str, ProjectFacts]  # each input's project facts (compatibility include included)
    records: dict[str, Record]  # the inputs whose result can be reused, by path as found
    scanned: dict[str, FileStat | None]  # every file the project model scanned, by file key, before it was read
    resolved: Resolved  # how the project's includes resolved
    started_ns: int = 0  # the clock when the run started, before it looked at any input
    finished_ns: int = 0  # the clock once it had written every output
    format: int = _FORMAT


def run_key(parts: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for part in (str(_FORMAT), tool_identity(), *parts):
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
                manifest = pickle.load(handle)
        except FileNotFoundError:
            return None
        except Exception:  # unreadable in any way: as if there were none
            _discard(path)
            return None
        if not isinstance(manifest, Manifest) or manifest.format != _FORMAT or manifest.key != key:
            _discard(path)
            return None
        return manifest

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


def written_output(path: Path, digest: str = "") -> tuple[FileStat | None, str]:
    """What to record of an output just written: its stat, and its digest while a change could hide behind it.
    ``digest``: of the bytes just written there, when the writer knows it (the file is not read again)."""
    stat = current_stat(path)
    if stat is None or settled(stat, time.time_ns()):
        return stat, ""
    return stat, digest or file_digest(path)


def file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    except OSError:
        return ""
    return digest.hexdigest()


def current_stat(path: str | Path) -> FileStat | None:
    try:
        return FileStat.of(os.stat(path))
    except OSError:
        return None


# How far a file's times may lag the clock: the kernel stamps changes with a clock that advances by ticks
# (10 ms at the coarsest); file systems that keep whole seconds (FAT keeps two) lag by up to that much.
_TICK_NS = 20_000_000
_WHOLE_SECONDS_NS = 2_000_000_000


def settled(stat: FileStat, looked_ns: int) -> bool:
    """Was the file last changed long enough before ``looked_ns`` that any later change shows in its times?"""
    lag = _WHOLE_SECONDS_NS if stat.ctime_ns % 1_000_000_000 == 0 else _TICK_NS
    return max(stat.mtime_ns, stat.ctime_ns) < looked_ns - lag


class Trust:
    """Which recorded facts still hold, for one manifest (stamps of shared inputs are taken once)."""

    def __init__(self, manifest: Manifest | None) -> None:
        self.manifest = manifest
        self._stamps: dict[str, Stamp] = {}

    def holds(self, recorded: FileStat | None, now: FileStat | None) -> bool:
        """An input (or a file the project model scanned) is as recorded, and was settled when recorded."""
        started = self.manifest.started_ns if self.manifest is not None else 0
        return recorded is not None and recorded == now and settled(recorded, started)

    def output_holds(self, record: Record, path: Path) -> bool:
        """The output at ``path`` is what the recorded run wrote there."""
        recorded = record.output
        if recorded is None or recorded != current_stat(path):
            return False
        finished = self.manifest.finished_ns if self.manifest is not None else 0
        return settled(recorded, finished) or (bool(record.output_digest) and file_digest(path) == record.output_digest)

    def inputs_hold(self, inputs: tuple[Stamp, ...]) -> bool:
        for stamp in inputs:
            path = stamp[0]
            if path not in self._stamps:
                (self._stamps[path],) = stamps([path])
            if self._stamps[path] != stamp:
                return False
        return True


class WarmStart:
    """The manifest of the last run with the same settings, and what of it still holds."""

    def __init__(self, store: ManifestStore, key: str, previous: Manifest | None, include_dirs: Sequence[str]) -> None:
        self.store = store
        self.key = key
        self.previous = previous
        self.include_dirs = include_dirs
        self.trust = Trust(previous)
        self.started_ns = time.time_ns()  # before any input is looked at

    @classmethod
    def open(cls, cache_dir: Path, key: str, include_dirs: Sequence[str]) -> WarmStart:
        store = ManifestStore(cache_dir)
        return cls(store, key, store.load(key), include_dirs)

    def model_holds(self, found: list[Found]) -> bool:
        """The same inputs, every file the model was built from unchanged, every include resolving as it did."""
        previous = self.previous
        if previous is None or previous.found != tuple(str(f.path) for f in found):
            return False
        known = {str(f.path): f.stat for f in found}
        for path, recorded in previous.scanned.items():
            if not self.trust.holds(recorded, known[path] if path in known else current_stat(path)):
                return False
        from ..project.graph import resolutions_hold

        return resolutions_hold(previous.resolved, self.include_dirs, frozenset(f.real for f in found))

    def earlier_scans(self) -> dict[str, tuple[FileStat, FileScan]]:
        return self.store.load_scans(self.key) if self.previous is not None else {}

    def scan_holds(self, recorded: FileStat | None, now: FileStat | None) -> bool:
        return self.trust.holds(recorded, now)

    def reusable(
        self, item: Found, facts: Mapping[str, ProjectFacts], dest: Destination | None, mode: OutputMode
    ) -> Record | None:
        """The recorded result of ``item`` when it can be emitted again as it is (``facts``: every input's, asked
        only for a file the last run recorded)."""
        record = self.previous.records.get(str(item.path)) if self.previous is not None else None
        if record is None or record.facts != facts[str(item.path)] or not self.trust.holds(record.stat, item.stat):
            return None
        if not self.trust.inputs_hold(record.inputs):
            return None
        holds = dest is not None and self.trust.output_holds(record, dest.path)
        return record if reusable(mode, record.entry, holds) else None

    def save(
        self,
        found: Sequence[Found],
        facts: Mapping[str, ProjectFacts],
        records: dict[str, Record],
        resolved: Resolved | None,
        scans: dict[str, tuple[FileStat | None, FileScan]] | None,
    ) -> None:
        """Record this run: with the model's scans and include resolutions when it built one, else the last
        manifest's (the model was taken from it)."""
        finished_ns = time.time_ns()  # every output written
        previous = self.previous
        if resolved is not None and scans is not None:
            scanned = {p: st for p, (st, _) in scans.items()}  # None (no stat): the model is rebuilt every time
        elif previous is not None:
            scanned, resolved = previous.scanned, previous.resolved
        else:
            return
        found_paths = tuple(str(f.path) for f in found)
        manifest = Manifest(
            self.key, found_paths, dict(facts), records, scanned, resolved, self.started_ns, finished_ns
        )
        kept = {p: (st, s) for p, (st, s) in scans.items() if st is not None} if scans is not None else None
        self.store.save(manifest, kept)


@dataclass(frozen=True)
class _SelectionScans:
    key: str
    started_ns: int  # the clock when the run that kept them started, before it looked at any input
    scans: dict[str, tuple[FileStat, FileScan]]  # by the path they were asked for
    format: int = _FORMAT


class SelectionScans:
    """The project model's scans, kept from one run that selects its files by git (``--staged``,
    ``--changed-since``) for the next with the same settings. Such a run builds the whole model every time (the
    files git names decide which files it translates), and keeps no manifest; the next one takes back each
    unchanged file's scan by its ``stat``, under the rule a warm run's manifest follows (:class:`Trust`), instead
    of reading and looking up every file of the tree. Written atomically; anything unreadable, of another format
    or under another key is no kept scan at all."""

    def __init__(self, cache_dir: Path, key: str) -> None:
        self.path = cache_dir / "runs" / f"{key}.selection.pickle"
        self.key = key
        self.started_ns = time.time_ns()  # before any input is looked at
        self._earlier = self._load()

    def _load(self) -> _SelectionScans | None:
        try:
            with open(self.path, "rb") as handle:
                kept = pickle.load(handle)
        except FileNotFoundError:
            return None
        except Exception:  # unreadable in any way: as if there were none
            _discard(self.path)
            return None
        if not isinstance(kept, _SelectionScans) or kept.format != _FORMAT or kept.key != self.key:
            _discard(self.path)
            return None
        return kept

    def earlier_scans(self) -> dict[str, tuple[FileStat, FileScan]]:
        return self._earlier.scans if self._earlier is not None else {}

    def scan_holds(self, recorded: FileStat | None, now: FileStat | None) -> bool:
        """The file is as it was when its scan was kept, and was settled then (see :class:`Trust`)."""
        started = self._earlier.started_ns if self._earlier is not None else 0
        return recorded is not None and recorded == now and settled(recorded, started)

    def save(self, scans: dict[str, tuple[FileStat | None, FileScan]]) -> None:
        kept = {p: (st, scan) for p, (st, scan) in scans.items() if st is not None}
        with contextlib.suppress(OSError, pickle.PicklingError):  # a cache that cannot be written only costs speed
            value = _SelectionScans(self.key, self.started_ns, kept)
            write_atomic(self.path, pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


def _discard(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
