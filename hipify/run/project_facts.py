"""The project facts each file's translation receives: scanned in the workers, or the manifest's."""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..buildfiles.build_phase import is_build_file
from ..knowledge.table import table_for
from ..machinery.supervise import LATER, Failure, Job, Later, Supervisor
from ..model import ProjectFacts
from ..options import Options
from ..project.graph import ProjectModel, build_file_facts
from ..sources.discover import FileStat, Found
from .destinations import _include_renames
from .manifest import SelectionScans, WarmStart, current_stat
from .request import RunConfig
from .workers import _task

if TYPE_CHECKING:
    from ..project.scan import FileScan


def preload_table(options: Options) -> Callable[[], None]:
    """Load the table and what the scan derives from it in a thread of the run's process, while the run walks the
    tree (the walk mostly waits for the file system; loading the table was the other half of a cold start); returns
    the wait for it, which comes before the first worker is forked: a fork must not copy a thread in the middle of
    loading (the workers share what the run's process loaded)."""
    from ..project.scan import prepare_scan

    def load() -> None:
        with contextlib.suppress(Exception):  # the run loads it again where it needs it, and says what went wrong
            prepare_scan(table_for(options))

    thread = threading.Thread(target=load, name="hipify-table", daemon=True)
    thread.start()
    return thread.join


def _scan_failed(job: Job[FileScan], failure: Failure) -> FileScan:
    from ..project.scan import FileScan

    return FileScan(job.arg.path, readable=False)  # its translation runs (and reports) separately


class _FactsOf(Mapping[str, ProjectFacts]):
    """Each input's project facts from the model, computed when first asked for: the run asks for a file's as it
    hands the file to a worker, so computing them overlaps the translations of the files before it."""

    def __init__(
        self,
        found: Sequence[Found],
        source: Callable[[Found], ProjectFacts],
        builds: Callable[[], dict[str, ProjectFacts]],
    ) -> None:
        self._found = {str(f.path): f for f in found}
        self._source = source
        self._builds = builds
        self._known: dict[str, ProjectFacts] = {}

    def __getitem__(self, path: str) -> ProjectFacts:
        known = self._known.get(path)
        if known is not None:
            return known
        item = self._found[path]
        if is_build_file(item.path):  # a build file's facts come from every source's: all at once
            self._known.update(self._builds())
            return self._known[path]
        known = self._known[path] = self._source(item)
        return known

    def __iter__(self) -> Iterator[str]:
        return iter(self._found)

    def __len__(self) -> int:
        return len(self._found)


@dataclass(frozen=True)
class _ProjectFacts:
    facts: Mapping[str, ProjectFacts]  # each input's, by path as found
    model: ProjectModel | None = None  # None: taken from the manifest, not built
    scans: dict[str, tuple[FileStat | None, FileScan]] | None = None  # what the model was built from


def _project_facts(
    config: RunConfig,
    found: list[Found],
    renames: dict[str, str],
    workers: Supervisor,
    warm: WarmStart | None,
    final: Callable[[Found, ProjectFacts], ProjectFacts],
    loaded: Callable[[], None] = lambda: None,
    selection: SelectionScans | None = None,
    other_files: Sequence[str] = (),
    kept: dict[str, tuple[FileStat | None, FileScan]] | None = None,
) -> _ProjectFacts:
    """Each input's project facts: the manifest's when nothing the model is built from changed, else from
    the model, built from the scans of the files that changed and the manifest's scans of the others.
    ``loaded``: called once the table and what the scan derives from it are loaded (before the first scan).
    ``other_files``: the tree's files not taken for their extension (real paths), which an include may name;
    ``kept``: the scans of a model this run built a moment ago, for the same tree with more inputs."""
    if warm is not None and warm.model_holds(found):
        assert warm.previous is not None
        return _ProjectFacts(dict(warm.previous.facts))
    sources = [f for f in found if not is_build_file(f.path)]
    earlier = _Kept(kept) if kept is not None else warm or selection
    model, scans = _project_model(config, sources, renames, workers, earlier, loaded, other_files)
    builds = [str(f.path) for f in found if is_build_file(f.path)]

    def of_builds() -> dict[str, ProjectFacts]:
        return build_file_facts(builds, model, _include_renames(sources, renames), config.options)

    return _ProjectFacts(_FactsOf(found, lambda f: final(f, model.facts_for(str(f.path))), of_builds), model, scans)


class _Kept:
    """Scans this run made for the model it built first, taken back as they are when it builds the model again
    with the headers that model found the inputs include (nothing changed in between that the run looks at)."""

    def __init__(self, scans: dict[str, tuple[FileStat | None, FileScan]]) -> None:
        self._scans = scans

    def earlier_scans(self) -> dict[str, tuple[FileStat | None, FileScan]]:
        return self._scans

    def scan_holds(self, recorded: FileStat | None, now: FileStat | None) -> bool:
        return True


def _size(stat: FileStat | None) -> int:
    return stat.size if stat is not None else 0


def _project_model(
    config: RunConfig,
    found: list[Found],
    renames: dict[str, str],
    workers: Supervisor,
    warm: WarmStart | SelectionScans | _Kept | None,
    loaded: Callable[[], None],
    other_files: Sequence[str] = (),
) -> tuple[ProjectModel, dict[str, tuple[FileStat | None, FileScan]]]:
    """Scan every input (and the project headers they reach) and build the include graph; returns the model
    and each file's scan with what ``stat`` said before it was read.

    The model takes each scan as it comes back (:class:`~hipify.project.graph.ModelBuilder`): the includes are
    resolved while the workers go on scanning, and a header they reach is scanned next, in the same stream, not
    in a round of its own after every input's scan. ``warm``: where earlier scans come from (a warm start's
    manifest, or the scans the last run selecting its files by git kept); each is taken back where its file's
    ``stat`` holds."""
    from ..project.graph import ModelBuilder
    from ..project.scan import prepare_scan
    from ..translation.pipeline import scan, scan_exact

    known = {str(f.path): f.stat for f in found}
    earlier = warm.earlier_scans() if warm is not None else {}
    scans: dict[str, tuple[FileStat | None, FileScan]] = {}
    prepared = False

    def stat_of(path: str) -> FileStat | None:
        return known[path] if path in known else current_stat(path)

    def kept_scan(path: str, stat: FileStat | None, exact: bool) -> FileScan | None:
        """The manifest's scan of ``path``, where the file is as it was then."""
        if warm is None or path not in earlier or not warm.scan_holds(earlier[path][0], stat):
            return None
        kept = earlier[path][1]
        return None if exact and kept.approximate else kept

    def job_of(path: str, stat: FileStat | None, exact: bool) -> Job[FileScan]:
        nonlocal prepared
        if not prepared:  # the table and what the scan derives from it, loaded once here: forked workers share it
            prepare_scan(table_for(config.options))
            loaded()
            prepared = True
        return Job(scan_exact if exact else scan, _task(config, path, path), home=path, size=_size(stat))

    paths = [str(f.path) for f in found]
    builder = ModelBuilder(paths, config.options.include_dirs, dict(_include_renames(found, renames)),
                           {str(f.path): f.real for f in found if f.real}, other_files)  # fmt: skip
    # The largest first, so that the workers end the scan together (the model waits for the last); a header
    # reached on the way goes before the inputs still waiting: what it includes is found sooner.
    waiting: deque[str] = deque(sorted(paths, key=lambda p: -_size(known[p])))
    sent: deque[tuple[str, FileStat | None]] = deque()  # the jobs given to the workers, in order

    def take(path: str, stat: FileStat | None, found_scan: FileScan) -> None:
        scans[path] = (stat, found_scan)
        waiting.extendleft(reversed(builder.add(found_scan)))

    def jobs() -> Iterator[Job[FileScan] | Later]:
        while True:
            if not waiting:
                if not sent:
                    return  # every scan is in, and none reached a header not yet asked for
                yield LATER  # the scans still out may reach more headers
                continue
            path = waiting.popleft()
            stat = stat_of(path)
            kept = kept_scan(path, stat, exact=False)
            if kept is not None:
                take(path, stat, kept)
                continue
            sent.append((path, stat))
            yield job_of(path, stat, exact=False)

    for found_scan in workers.map(jobs(), _scan_failed):
        path, stat = sent.popleft()
        take(path, stat, found_scan)

    def rescan(vague: Sequence[str]) -> list[FileScan]:
        """Exact scans (the model asks for few)."""
        stats = {p: stat_of(p) for p in vague}
        kept = {p: k for p in vague if (k := kept_scan(p, stats[p], exact=True)) is not None}
        todo = [p for p in vague if p not in kept]
        fresh = dict(zip(todo, workers.map([job_of(p, stats[p], True) for p in todo], _scan_failed), strict=True))
        done = [kept[p] if p in kept else fresh[p] for p in vague]
        scans.update((p, (stats[p], s)) for p, s in zip(vague, done, strict=True))
        return done

    return builder.finish(rescan), scans
