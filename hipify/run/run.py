"""One translation run: discover -> tasks -> supervised workers -> emit/report -> exit code.

The CLI builds a :class:`RunConfig` and calls :func:`run`; this module decides the order
of things, the emitter writes, the workers (``pipeline.process``) compute. A file whose
translation crashes, hangs or exhausts memory costs only that file (``hipify.machinery.supervise``).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..compat import HEADER_NAME, entries_in, load_catalog
from ..compat import render as render_compat
from ..knowledge.samples_helpers import helpers_of_entries, hip_version
from ..machinery.cache import Stamp, stamps
from ..machinery.supervise import Limits, Supervisor
from ..model import ProjectFacts
from ..output.emit import Destination, EmitSettings, Emitter, Outcome, OutputMode, Placed, message
from ..reports.report import FileEntry, Report
from ..sources.discover import Found, discover, without_backups
from .compat_header import _compat_header_path, _generated_compat, _relative_include
from .conclusion import _conclude, _finish
from .copies import _copy_others, _Copying
from .destinations import (
    MirrorDirs,
    _destination,
    _display,
    _inside_walked_trees,
    _mirror_root,
    _output_dir,
    _shown,
    _without_own_output,
)
from .manifest import Record, SelectionScans, WarmStart, written_output
from .project_facts import _project_facts, _size, preload_table
from .reached import reached_headers
from .request import STDIN, RunConfig, UsageError, _check
from .warm import _changed, _selection_scans, _warm_start
from .workers import _progress, _run_stdin, _task, _translate

if TYPE_CHECKING:
    from ..project.graph import ProjectModel

# Threads writing a tree's files (--out-dir, --in-place): their waits for the disk overlap.
_WRITE_THREADS = 8


def run(config: RunConfig) -> int:
    _check(config)
    limit = 0 if config.verbose else config.max_findings
    threads = _WRITE_THREADS if config.mode in (OutputMode.IN_PLACE, OutputMode.OUT_DIR) else 0
    emitter = Emitter(EmitSettings(config.mode, config.quiet, config.verbose, limit, threads))
    report = Report(options=config.options)
    copied = 0
    caller_froze = gc.get_freeze_count() > 0
    try:
        with emitter, Supervisor(config.jobs, Limits(config.timeout, config.max_memory)) as workers:
            if config.paths == (STDIN,):
                outcome = _run_stdin(config, emitter, report, workers)
            else:
                outcome, copied = _run_files(config, emitter, report, workers, caller_froze)
    finally:
        if not caller_froze:
            gc.unfreeze()  # the project model's objects were kept out of full collections for the run only
    _finish(config, report)
    _conclude(config, emitter, report, copied)
    return int(outcome)


def _run_files(
    config: RunConfig, emitter: Emitter, report: Report, workers: Supervisor, caller_froze: bool
) -> tuple[Outcome, int]:
    """Translate the files; returns the outcome and how many other files were copied into the mirror.
    ``caller_froze``: the program running us froze objects for the collector itself (we freeze none then)."""
    warm = _warm_start(config)  # before the inputs are looked at
    selection = _selection_scans(config)  # the same, for a run that selects its files by git
    # A cold run loads the table while it walks the tree (a warm one may need no table at all).
    table_loaded = preload_table(config.options) if warm is None or warm.previous is None else _nothing
    try:
        return _run_tree(config, emitter, report, workers, caller_froze, warm, table_loaded, selection)
    finally:
        table_loaded()  # no loading thread outlives the run (a worker forked by a later run must not copy it)


def _nothing() -> None:
    pass


def _reached(
    config: RunConfig, found: list[Found], others: list[Found], model: ProjectModel | None, out_dir: Path | None
) -> list[Found]:
    """:func:`~hipify.run.reached.reached_headers`, but not the run's own output nor an in-place run's backups."""
    if model is None or not others:  # (the manifest's facts: the inputs and what they include are as they were)
        return []
    reached = without_backups(reached_headers(found, others, model), config.backup_suffix)
    return _without_own_output(reached, out_dir) if out_dir is not None else reached


def _run_tree(
    config: RunConfig,
    emitter: Emitter,
    report: Report,
    workers: Supervisor,
    caller_froze: bool,
    warm: WarmStart | None,
    table_loaded: Callable[[], None],
    selection: SelectionScans | None = None,
) -> tuple[Outcome, int]:
    """:func:`_run_files` once the warm start is known and the table is being loaded (``table_loaded`` waits for
    it: before the first worker is forked). ``selection``: the scans kept for a run selecting files by git."""
    out_dir = Path(config.out_dir).absolute() if config.out_dir else None
    others: list[Found] = []  # left out for their extension: an input may include one (``<lib/utils.hu>``)
    found, problems = discover(
        [Path(p) for p in config.paths],
        config.extensions,
        config.exclude,
        config.use_gitignore,
        config.build_files,
        others if config.extensions else None,
    )
    found = without_backups(found, config.backup_suffix)
    if out_dir is not None:
        found = _without_own_output(found, out_dir)
    # A compatibility header an earlier run wrote is ours, not the project's: not translated,
    # but what it holds is still relied on by the files that include it.
    earlier_compat = {f.path: _generated_compat(f.path) for f in found if f.path.name == HEADER_NAME}
    found = [f for f in found if earlier_compat.get(f.path) is None]
    if config.mode == OutputMode.IN_PLACE:
        found, outside = _inside_walked_trees(found)
        problems += outside
    outcome = Outcome.OK
    for problem in problems:
        if problem.fatal:
            message(f"{problem.path}: error: {problem.message}")
            outcome = Outcome.FAILED
        elif not config.quiet:
            message(f"{problem.path}: note: {problem.message}")
    if not found:
        if not problems:
            message("hipify-py: no source files found")
        return outcome, 0
    if config.mode == OutputMode.STDOUT and len(found) > 1:
        raise UsageError("several input files: choose --in-place, --out-dir, --diff, --check or --examine")
    if config.mode == OutputMode.OUTPUT_FILE and len(found) != 1:
        raise UsageError("-o takes exactly one input file")
    renames = dict(config.renames)
    dest_root = _mirror_root(found)
    if out_dir is not None and out_dir.resolve() == dest_root.resolve():
        raise UsageError(f"--out-dir {config.out_dir} is the input directory; use --in-place to rewrite files there")
    compat_header = _compat_header_path(config, found, out_dir, dest_root)
    mirror = MirrorDirs(out_dir, dest_root) if out_dir is not None else None
    # A cold run copies the mirror's other files while the sources are scanned and translated (a thread: the walk
    # and the copies wait on the disk, not on the workers). Otherwise they are copied at the end: a selection by
    # git may refuse the run, and a run with a manifest to reuse mostly checks what it holds, where a thread would
    # only take turns with that work.
    selecting = bool(config.changed_since or config.staged)
    cold = warm is None or warm.previous is None
    copying = None
    if config.copy_other_files and out_dir is not None and cold and not selecting:
        copying = _Copying(config, found, out_dir, dest_root, emitter)
    compat: set[str] = set()

    includes_by_directory: dict[Path, str] = {}  # the header's include spelling depends on the directory only

    def final_facts(item: Found, facts: ProjectFacts) -> ProjectFacts:
        directory = _output_dir(item, config, mirror)
        spelled = includes_by_directory.get(directory)
        if spelled is None:
            spelled = includes_by_directory[directory] = _relative_include(compat_header, directory / HEADER_NAME)
        return replace(facts, compat_include=spelled)

    def settled() -> None:
        """What exists now lives until the run ends, so the collector need not walk it again: the table and its
        index (a million objects; full collections in the scan walked them while the parent fed no worker),
        then the model and its scans (a full collection while the results came in walked them all, ~0.1 s).
        run() undoes it; a program that froze objects of its own decides when they are collected."""
        if not caller_froze:
            gc.freeze()

    table_loaded()
    other_files = [o.real for o in others]
    project = _project_facts(config, found, renames, workers, warm, final_facts, settled, selection, other_files)
    reached = _reached(config, found, others, project.model, out_dir)
    if reached:  # headers the walk did not take that the inputs include: sources too, the model built again
        if copying is not None:  # its copies of them are done before their translations are written
            outcome = max(outcome, copying.result()[0], emitter.finish_writes())
        found = found + reached
        project = _project_facts(
            config, found, renames, workers, None, final_facts, settled, None, other_files, project.scans
        )
    settled()
    selected = found
    if config.changed_since or config.staged:
        assert project.model is not None, "a selection by git never uses the manifest"
        selected = _changed(config, found, project.model)
    facts = project.facts
    destinations = [_destination(item, config, mirror, renames) for item in selected]
    reused = [
        warm.reusable(item, facts, dest, config.mode) if warm else None
        for item, dest in zip(selected, destinations, strict=True)
    ]
    # Each task's facts are computed as the workers ask for more tasks (``facts`` computes them when asked).
    tasks = (
        (_task(config, str(item.path), _display(item), facts[str(item.path)]), dest, _size(item.stat))
        for item, dest, record in zip(selected, destinations, reused, strict=True)
        if record is None
    )
    count = sum(record is None for record in reused)
    show_progress = count > 20 and config.progress and not config.quiet and sys.stderr.isatty()
    results = _progress(_translate(config, workers, tasks), count, show_progress)
    records: dict[str, Record] = {}
    # What a record needs besides the written output, which is looked at once every write is done (with the
    # digest of the bytes its worker wrote, where it wrote them).
    unrecorded: list[tuple[Found, Destination | None, FileEntry, tuple[str, ...], tuple[Stamp, ...], Outcome, str]] = []
    for item, dest, record in zip(selected, destinations, reused, strict=True):
        if record is not None:  # an earlier run's result, whose output is still in place: nothing to read or write
            entry = record.entry.reused()
            report.add_entry(entry)
            compat.update(record.compat)
            outcome = max(outcome, emitter.emit_reused(entry, dest))
            records[str(item.path)] = record
            continue
        result = next(results)
        if isinstance(result, Placed):  # its worker wrote it
            assert dest is not None
            entry, wrote = result.entry, result.digest
            emitted = emitter.emit_placed(result, dest)
        else:
            entry, wrote = FileEntry.of(result), ""
            emitted = emitter.emit(result, dest, item.explicit)
        report.add_entry(entry)
        compat.update(result.compat)
        outcome = max(outcome, emitted)
        if warm is not None and entry.error is None and item.stat is not None:
            unrecorded.append((item, dest, entry, result.compat, stamps(result.inputs), emitted, wrote))
    copied = 0
    if copying is None and config.copy_other_files and out_dir is not None:
        copy_outcome, copied = _copy_others(config, found, out_dir, dest_root, emitter)
        outcome = max(outcome, copy_outcome)
    elif copying is not None:
        copy_outcome, copied = copying.result()
        outcome = max(outcome, copy_outcome)
        copied -= len(reached)  # copied before they were known to be sources
    outcome = max(outcome, emitter.finish_writes())
    for item, dest, entry, compat_entries, inputs, emitted, wrote in unrecorded:
        assert item.stat is not None
        ok = dest is not None and emitted != Outcome.FAILED and dest.path not in emitter.failed_destinations
        written, digest = written_output(dest.path, wrote) if ok and dest is not None else (None, "")
        path = str(item.path)
        records[path] = Record(item.stat, facts[path], entry, compat_entries, inputs, written, digest)
    if selection is not None and project.scans is not None:
        selection.save(project.scans)
    if warm is not None and (tasks or project.scans is not None or warm.previous is None):
        warm.save(found, facts, records, project.model.resolved if project.model else None, project.scans)
    if compat:
        for text in [*earlier_compat.values(), _generated_compat(compat_header)]:
            compat.update(entries_in(text or ""))
        catalog = load_catalog()
        entries = [catalog.by_entry_name[n] for n in sorted(compat) if n in catalog.by_entry_name]
        text = render_compat(catalog.closure(entries), config.options.rocm_version)
        report.compat_header = (_shown(compat_header), tuple(sorted(compat)))
        outcome = max(outcome, emitter.emit_compat_header(compat_header, _shown(compat_header), text))
        for helper in helpers_of_entries(compat):  # NVIDIA samples helpers the tree lacks: ours, beside it
            beside = compat_header.parent / helper
            outcome = max(outcome, emitter.emit_compat_header(beside, _shown(beside), hip_version(helper)))
    return outcome, copied
