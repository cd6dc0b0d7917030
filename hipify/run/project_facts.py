"""The project facts each file's translation receives: scanned in the workers, or the manifest's."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..buildfiles.build_phase import facts_from_model, is_build_file
from ..knowledge.table import table_for
from ..machinery.supervise import Failure, Job, Supervisor
from ..model import ProjectFacts
from ..project.graph import ProjectModel
from ..sources.discover import FileStat, Found
from .destinations import _include_renames
from .manifest import WarmStart, current_stat
from .request import RunConfig
from .workers import _task

if TYPE_CHECKING:
    from ..project.scan import FileScan


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
) -> _ProjectFacts:
    """Each input's project facts: the manifest's when nothing the model is built from changed, else from
    the model, built from the scans of the files that changed and the manifest's scans of the others."""
    if warm is not None and warm.model_holds(found):
        assert warm.previous is not None
        return _ProjectFacts(dict(warm.previous.facts))
    sources = [f for f in found if not is_build_file(f.path)]
    model, scans = _project_model(config, sources, renames, workers, warm)
    builds = [str(f.path) for f in found if is_build_file(f.path)]

    def of_builds() -> dict[str, ProjectFacts]:
        return facts_from_model(builds, model, _include_renames(sources, renames), config.options)

    return _ProjectFacts(_FactsOf(found, lambda f: final(f, model.facts_for(str(f.path))), of_builds), model, scans)


def _size(stat: FileStat | None) -> int:
    return stat.size if stat is not None else 0


def _project_model(
    config: RunConfig, found: list[Found], renames: dict[str, str], workers: Supervisor, warm: WarmStart | None
) -> tuple[ProjectModel, dict[str, tuple[FileStat | None, FileScan]]]:
    """Scan every input (and the project headers they reach) and build the include graph; returns the model
    and each file's scan with what ``stat`` said before it was read."""
    from ..project.graph import build_model
    from ..project.scan import prepare_scan

    known = {str(f.path): f.stat for f in found}
    earlier = warm.earlier_scans() if warm is not None else {}
    scans: dict[str, tuple[FileStat | None, FileScan]] = {}

    def scan_more(paths: Sequence[str], exact: bool = False) -> list[FileScan]:
        stats = {p: known[p] if p in known else current_stat(p) for p in paths}
        kept = {
            p: earlier[p][1]
            for p in paths
            if warm
            and p in earlier
            and warm.trust.holds(earlier[p][0], stats[p])
            and not (exact and earlier[p][1].approximate)
        }
        todo = [p for p in paths if p not in kept]
        from ..translation.pipeline import scan, scan_exact

        if todo:  # load the table and what the scan derives from it once, in the parent: forked workers share them
            prepare_scan(table_for(config.options))

        job = scan_exact if exact else scan
        # The largest first: the scan's last jobs are small ones, so the workers finish it together (the model
        # waits for the last).
        todo.sort(key=lambda p: -_size(stats[p]))
        jobs = [Job(job, _task(config, p, p), home=p, size=_size(stats[p])) for p in todo]
        fresh = dict(zip(todo, workers.map(jobs, _scan_failed), strict=True))
        done = [kept[p] if p in kept else fresh[p] for p in paths]
        scans.update((p, (stats[p], s)) for p, s in zip(paths, done, strict=True))
        return done

    def rescan(paths: Sequence[str]) -> list[FileScan]:
        return scan_more(paths, exact=True)

    first = scan_more([str(f.path) for f in found])
    include_renames = dict(_include_renames(found, renames))
    known_keys = {str(f.path): f.real for f in found if f.real}  # the walk resolved them already
    model = build_model(first, scan_more, config.options.include_dirs, include_renames, rescan, known_keys)
    return model, scans
