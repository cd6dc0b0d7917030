"""One translation run: discover -> tasks -> supervised workers -> emit/report -> exit code.

The CLI builds a :class:`RunConfig` and calls :func:`run`; this module decides the order
of things, the emitter writes, the workers (``pipeline.process``) compute. A file whose
translation crashes, hangs or exhausts memory costs only that file (``hipify.supervise``).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from .build_phase import facts_from_model, is_build_file, without_backups
from .cache import stamps
from .compat import HEADER_NAME, entries_in, is_generated, load_catalog
from .compat import render as render_compat
from .discover import DEFAULT_EXTENSIONS, FileStat, Found, Problem, discover
from .emit import (
    WRITING_MODES,
    Destination,
    EmitSettings,
    Emitter,
    Outcome,
    OutputMode,
    failure_line,
    message,
    write_report,
)
from .engines import engine_environment
from .fileio import DEFAULT_MAX_SIZE, SourceError, decode, read_regular
from .findings import DEFAULT_MAX_FINDINGS, IncludeHints
from .manifest import Record, WarmStart, current_stat, run_key, written_output
from .model import FileResult, FileTask, ProjectFacts, Severity
from .options import Options
from .project.graph import ProjectModel, file_key
from .report import FileEntry, Report
from .report_render import FORMATS, render
from .summary import RunSummary, check_lines, held_back_line, summary_line
from .supervise import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_S, Failure, Job, Limits, Supervisor
from .table import shipped_digest, table_for
from .vcs import VcsError, changed_files

if TYPE_CHECKING:  # the pipeline's imports (engines, planner) are loaded only when a worker has a job
    from .project.scan import FileScan

STDIN = "-"
# Modes whose outputs are other files than the inputs: a warm run checks they are still what was written.
_MIRRORED = (OutputMode.OUT_DIR, OutputMode.OUTPUT_FILE)


class UsageError(Exception):
    """The command line asks for something impossible; exit code 2 with the message."""


@dataclass(frozen=True)
class RunConfig:
    """Everything a run needs, decided by the command line."""

    paths: tuple[str, ...]
    options: Options
    mode: OutputMode = OutputMode.STDOUT
    output: str = ""  # -o FILE
    out_dir: str = ""  # --out-dir DIR
    backup_suffix: str = ".prehip"  # --in-place backups; "" = none
    renames: tuple[tuple[str, str], ...] = ()  # (.old, .new) suffixes for --rename-extensions; () = keep names
    copy_other_files: bool = False
    build_files: bool = True  # translate the build files found with the sources (Makefile, CMakeLists.txt)
    print_stats: bool = False
    report: str = ""
    report_format: str = ""
    validation: str = ""
    quiet: bool = False
    verbose: bool = False  # notes too, and no cap on findings
    max_findings: int = DEFAULT_MAX_FINDINGS  # findings printed at most (0 = all)
    command: tuple[str, ...] = ()  # the command line's arguments (the fix command of --check repeats them)
    progress: bool = True
    jobs: int = 1
    exclude: tuple[str, ...] = ()
    use_gitignore: bool = True
    changed_since: str = ""  # git revision: translate only files changed since (and the files including them)
    staged: bool = False  # translate only files staged in git (and the files including them)
    config_file: str = ""  # the configuration the values came from, as shown
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS
    encoding: str = "utf-8"
    max_size: int = DEFAULT_MAX_SIZE
    cache_dir: str = ""  # "" = no cache
    timeout: float = DEFAULT_TIMEOUT_S  # seconds per file (0 = none)
    max_memory: int = DEFAULT_MEMORY_MB  # MB per worker process (0 = none)
    stdin: bytes | None = field(default=None, repr=False)  # the input when paths == ("-",); read by the CLI


def run(config: RunConfig) -> int:
    _check(config)
    limit = 0 if config.verbose else config.max_findings
    emitter = Emitter(EmitSettings(config.mode, config.quiet, config.verbose, limit))
    report = Report(options=config.options)
    copied = 0
    with Supervisor(config.jobs, Limits(config.timeout, config.max_memory)) as workers:
        if config.paths == (STDIN,):
            outcome = _run_stdin(config, emitter, report, workers)
        else:
            outcome, copied = _run_files(config, emitter, report, workers)
    _finish(config, report)
    _conclude(config, emitter, report, copied)
    return int(outcome)


def _conclude(config: RunConfig, emitter: Emitter, report: Report, copied: int) -> None:
    """Print the findings (one per root cause), what --check found, and the summary line."""
    findings = emitter.findings.findings(IncludeHints([_repository_root(config.paths)]))
    shown, held_back = emitter.findings.shown(findings)
    for finding in shown:
        message(finding.format())
    if config.quiet:
        return
    hidden_notes = 0 if config.verbose else sum(1 for f in findings if f.severity == Severity.INFO)
    destination = config.out_dir or config.output  # as the user wrote it
    summary = RunSummary(
        config.mode,
        destination,
        copied,
        config.report,
        held_back,
        hidden_notes,
        config.command or config.paths,
        config.config_file,
    )
    lines = [held_back_line(summary)]
    if config.mode == OutputMode.CHECK:
        lines += check_lines(report, summary)
    lines.append(summary_line(report, findings, summary))
    for line in lines:
        if line:
            message(line)


def _repository_root(paths: Sequence[str]) -> str:
    """The enclosing git work tree of the inputs (where a missing header may be), else their directory."""
    existing = [os.path.abspath(p) for p in paths if p != STDIN and os.path.exists(p)]
    if not existing:
        return os.getcwd()
    start = os.path.commonpath([p if os.path.isdir(p) else os.path.dirname(p) for p in existing])
    current = start
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return start
        current = parent


def _check(config: RunConfig) -> None:
    if not config.paths:
        raise UsageError("no input: give files or directories, or '-' for stdin")
    if config.jobs < 0:
        raise UsageError("-j must be >= 0")
    if config.timeout < 0 or config.max_memory < 0:
        raise UsageError("--timeout and --max-memory must be >= 0 (0: no limit)")
    if os.sep in config.backup_suffix or config.backup_suffix == ".":
        raise UsageError(f"--backup-suffix {config.backup_suffix!r} is not a file name suffix")
    if (config.renames or config.copy_other_files) and config.mode != OutputMode.OUT_DIR:
        raise UsageError("--rename-extensions and --copy-other-files need --out-dir")
    if config.changed_since and config.staged:
        raise UsageError("--changed-since and --staged cannot be combined")
    if STDIN in config.paths and config.paths != (STDIN,):
        raise UsageError("'-' (stdin) cannot be combined with other paths")
    if config.paths == (STDIN,) and config.mode in (OutputMode.IN_PLACE, OutputMode.OUT_DIR):
        raise UsageError(f"stdin cannot be used with --{config.mode.value}")
    if config.report:
        _report_format(config)  # fail before translating anything


def _run_stdin(config: RunConfig, emitter: Emitter, report: Report, workers: Supervisor) -> Outcome:
    from .pipeline import process_decoded

    table_for(config.options)  # load once in the parent: forked workers share it
    try:
        decoded = decode(config.stdin or b"", config.encoding)
    except SourceError as err:
        message(failure_line("<stdin>", err.message, err.code))
        return Outcome.FAILED
    task = FileTask(
        STDIN, "<stdin>", config.options, config.encoding, config.max_size, ProjectFacts(), config.cache_dir
    )
    (result,) = workers.map([Job(process_decoded, (task, decoded))], _translation_failed)
    report.add(result)
    dest = Destination(Path(config.output)) if config.mode == OutputMode.OUTPUT_FILE else None
    return emitter.emit(result, dest)


def _run_files(config: RunConfig, emitter: Emitter, report: Report, workers: Supervisor) -> tuple[Outcome, int]:
    """Translate the files; returns the outcome and how many other files were copied into the mirror."""
    out_dir = Path(config.out_dir).absolute() if config.out_dir else None
    warm = _warm_start(config)  # before the inputs are looked at
    found, problems = discover(
        [Path(p) for p in config.paths], config.extensions, config.exclude, config.use_gitignore, config.build_files
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
    compat: set[str] = set()

    def final_facts(item: Found, facts: ProjectFacts) -> ProjectFacts:
        output = _output_path(item, config, out_dir, dest_root, renames)
        return replace(facts, compat_include=_relative_include(compat_header, output))

    project = _project_facts(config, found, renames, workers, warm, final_facts)
    selected = found
    if config.changed_since or config.staged:
        assert project.model is not None, "a selection by git never uses the manifest"
        selected = _changed(config, found, project.model)
    facts = project.facts
    destinations = [_destination(item, config, out_dir, dest_root, renames) for item in selected]
    reused = [
        warm.reusable(item, facts[str(item.path)], dest, config.mode) if warm else None
        for item, dest in zip(selected, destinations, strict=True)
    ]
    tasks = [
        _task(config, str(item.path), _display(item), facts[str(item.path)])
        for item, record in zip(selected, reused, strict=True)
        if record is None
    ]
    show_progress = len(tasks) > 20 and config.progress and not config.quiet and sys.stderr.isatty()
    results = _progress(_translate(config, workers, tasks), len(tasks), show_progress)
    records: dict[str, Record] = {}
    for item, dest, record in zip(selected, destinations, reused, strict=True):
        if record is not None:  # an earlier run's result, whose output is still in place: nothing to read or write
            entry = record.entry.reused()
            report.add_entry(entry)
            compat.update(record.compat)
            outcome = max(outcome, emitter.emit_reused(entry, dest))
            records[str(item.path)] = record
            continue
        result = next(results)
        entry = FileEntry.of(result)
        report.add_entry(entry)
        compat.update(result.compat)
        emitted = emitter.emit(result, dest, item.explicit)
        outcome = max(outcome, emitted)
        if warm is not None and result.error is None and item.stat is not None:
            written, digest = (
                written_output(dest.path) if dest is not None and emitted != Outcome.FAILED else (None, "")
            )
            inputs = stamps(result.inputs)
            path = str(item.path)
            records[path] = Record(item.stat, facts[path], entry, result.compat, inputs, written, digest)
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
    copied = 0
    if config.copy_other_files and out_dir is not None:
        copy_outcome, copied = _copy_others(config, found, out_dir, dest_root, emitter)
        outcome = max(outcome, copy_outcome)
    return outcome, copied


def _run_key_parts(config: RunConfig) -> Iterator[str]:
    """Everything besides the files that decides a run's output (what its manifest is keyed by)."""
    from .compat import load_catalog

    options = config.options
    yield shipped_digest() + load_catalog().digest
    yield options.cache_key()
    yield engine_environment(options)
    yield os.getcwd()  # the files' names in messages are relative to it
    yield repr((config.paths, config.mode.value, os.path.abspath(config.output) if config.output else ""))
    yield repr((os.path.abspath(config.out_dir) if config.out_dir else "", config.backup_suffix, config.renames))
    yield repr((config.copy_other_files, config.extensions, config.exclude, config.use_gitignore, config.build_files))
    yield repr((config.encoding, config.max_size))


def _changed(config: RunConfig, found: list[Found], model: ProjectModel) -> list[Found]:
    """The files git says changed, and the files that include them (their translation can depend on them)."""
    try:
        changed = changed_files(config.paths, config.changed_since, config.staged)
    except VcsError as exc:
        raise UsageError(str(exc)) from None
    return [f for f in found if not changed.isdisjoint(model.closure(file_key(str(f.path))))]


def _generated_compat(path: Path) -> str | None:
    """The text of a compatibility header hipify-py wrote at ``path`` (None for any other file)."""
    try:
        text = read_regular(path, 1 << 20).decode("utf-8")
    except (SourceError, UnicodeDecodeError):
        return None
    return text if is_generated(text) else None


def _compat_header_path(config: RunConfig, found: list[Found], out_dir: Path | None, dest_root: Path) -> Path:
    """Where the compatibility header goes: the root of the output tree (or next to -o's file)."""
    if config.mode == OutputMode.OUTPUT_FILE:
        return Path(config.output).resolve().parent / HEADER_NAME
    return (out_dir if out_dir is not None else dest_root) / HEADER_NAME


def _output_path(
    item: Found, config: RunConfig, out_dir: Path | None, dest_root: Path, renames: dict[str, str]
) -> Path:
    if config.mode == OutputMode.OUTPUT_FILE:
        return Path(config.output).resolve()
    if out_dir is not None:
        return out_dir / _renamed(_absolute(item.path).relative_to(dest_root), renames)
    return item.resolved


def _relative_include(header: Path, output: Path) -> str:
    return Path(os.path.relpath(header, output.parent)).as_posix()


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def _translation_failed(job: Job[FileResult], failure: Failure) -> Job[FileResult] | FileResult:
    """A worker crashed, ran out of time or memory on a file: retry it with the regex engine once,
    else report the file as failed."""
    from .pipeline import Fallback, failed, fallback, process_decoded

    if job.fn is fallback:
        first: Fallback = job.arg
        return failed(first.task, f"{first.reason}; then the regex engine: {failure.describe()}")
    task, decoded = job.arg if job.fn is process_decoded else (job.arg, None)
    if task.options.engine == "regex":
        return failed(task, failure.describe())
    return Job(fallback, Fallback(task, failure.describe(), decoded))


def _scan_failed(job: Job[FileScan], failure: Failure) -> FileScan:
    from .project.scan import FileScan

    return FileScan(job.arg.path, readable=False)  # its translation runs (and reports) separately


def _task(config: RunConfig, path: str, display: str, project: ProjectFacts | None = None) -> FileTask:
    return FileTask(
        path, display, config.options, config.encoding, config.max_size, project or ProjectFacts(), config.cache_dir
    )


def _translate(config: RunConfig, workers: Supervisor, tasks: list[FileTask]) -> Iterator[FileResult]:
    if not tasks:
        return iter(())
    table_for(config.options)  # load once in the parent: forked workers share it
    from .pipeline import process

    return workers.map([Job(process, t) for t in tasks], _translation_failed)


@dataclass(frozen=True)
class _ProjectFacts:
    facts: dict[str, ProjectFacts]  # each input's, by path as found
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
    facts = {str(f.path): final(f, model.facts_for(str(f.path))) for f in sources}
    builds = [str(f.path) for f in found if str(f.path) not in facts]
    facts.update(facts_from_model(builds, model, _include_renames(sources, renames), config.options))
    return _ProjectFacts({str(f.path): facts[str(f.path)] for f in found}, model, scans)


def _project_model(
    config: RunConfig, found: list[Found], renames: dict[str, str], workers: Supervisor, warm: WarmStart | None
) -> tuple[ProjectModel, dict[str, tuple[FileStat | None, FileScan]]]:
    """Scan every input (and the project headers they reach) and build the include graph; returns the model
    and each file's scan with what ``stat`` said before it was read."""
    from .project.graph import build_model

    known = {str(f.path): f.stat for f in found}
    earlier = warm.earlier_scans() if warm is not None else {}
    scans: dict[str, tuple[FileStat | None, FileScan]] = {}

    def scan_more(paths: Sequence[str]) -> list[FileScan]:
        stats = {p: known[p] if p in known else current_stat(p) for p in paths}
        kept = {p: earlier[p][1] for p in paths if warm and p in earlier and warm.trust.holds(earlier[p][0], stats[p])}
        todo = [p for p in paths if p not in kept]
        if todo:
            table_for(config.options)  # load once in the parent: forked workers share it
        from .pipeline import scan

        fresh = workers.map([Job(scan, _task(config, p, p)) for p in todo], _scan_failed)
        done = [kept[p] if p in kept else next(fresh) for p in paths]
        scans.update((p, (stats[p], s)) for p, s in zip(paths, done, strict=True))
        return done

    first = scan_more([str(f.path) for f in found])
    include_renames = dict(_include_renames(found, renames))
    return build_model(first, scan_more, config.options.include_dirs, include_renames), scans


def _warm_start(config: RunConfig) -> WarmStart | None:
    """The last manifest of a run with these settings; None where a run cannot use one (no cache, or a selection
    of files by git)."""
    if not config.cache_dir or not config.options.use_cache or config.changed_since or config.staged:
        return None
    return WarmStart.open(Path(config.cache_dir), run_key(_run_key_parts(config)), config.options.include_dirs)


def _progress(results: Iterable[FileResult], total: int, show: bool) -> Iterator[FileResult]:
    if not show:
        yield from results
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("hipify"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        bar = progress.add_task("files", total=total)
        for result in results:
            progress.advance(bar)
            yield result


def _display(found: Found) -> str:
    try:
        return os.path.relpath(found.path)
    except ValueError:
        return str(found.path)


def _inside(path: Path, directory: Path) -> bool:
    """``path`` is ``directory`` or lies under it (both absolute and normalized; compared as text, which is what
    ``directory in path.parents`` does, without building every parent)."""
    inner, outer = str(path), str(directory)
    return inner == outer or inner.startswith(outer if outer.endswith(os.sep) else outer + os.sep)


def _absolute(path: Path) -> Path:
    """Absolute, ``..`` folded, symbolic links *not* followed (the tree as the user sees it)."""
    return Path(os.path.abspath(path))


def _mirror_root(found: list[Found]) -> Path:
    """The directory whose layout --out-dir reproduces (as walked: links inside it are not resolved,
    so a link pointing out of the tree is mirrored where it is)."""
    roots = {_absolute(f.root) for f in found}
    if len(roots) == 1:
        return roots.pop()
    return Path(os.path.commonpath([str(r) for r in roots]))


def _without_own_output(found: list[Found], out_dir: Path) -> list[Found]:
    """Leave out an earlier run's output when --out-dir lies inside a tree being walked."""
    real_out = out_dir.resolve()
    roots = {root: root.resolve() for root in {item.root for item in found}}
    kept = []
    for item in found:
        root = roots[item.root]
        if not item.explicit and real_out != root and _inside(real_out, root) and _inside(item.resolved, real_out):
            continue
        kept.append(item)
    return kept


def _inside_walked_trees(found: list[Found]) -> tuple[list[Found], list[Problem]]:
    """In place, a walk follows a symbolic link only to a file inside the tree it walks (HPY309)."""
    kept: list[Found] = []
    outside: list[Problem] = []
    roots = {root: root.resolve() for root in {item.root for item in found}}
    for item in found:
        real = item.resolved
        if item.explicit or _inside(real, roots[item.root]):
            kept.append(item)
        else:
            outside.append(
                Problem(item.path, f"HPY309 symbolic link to {real}, outside {item.root}; not followed", fatal=False)
            )
    return kept, outside


def _renamed(path: Path, renames: dict[str, str]) -> Path:
    new_suffix = renames.get(path.suffix)
    return path.with_suffix(new_suffix) if new_suffix else path


def _include_renames(found: list[Found], renames: dict[str, str]) -> tuple[tuple[str, str], ...]:
    pairs = {f.path.name: _renamed(f.path, renames).name for f in found}
    return tuple(sorted((old, new) for old, new in pairs.items() if old != new))


def _destination(
    item: Found, config: RunConfig, out_dir: Path | None, dest_root: Path, renames: dict[str, str]
) -> Destination | None:
    mode = config.mode
    if mode not in WRITING_MODES:
        return None
    if mode == OutputMode.OUTPUT_FILE:
        return Destination(Path(config.output))
    if mode == OutputMode.IN_PLACE:  # a symbolic link is followed: its target is translated, the link stays
        real = item.resolved
        suffix = config.backup_suffix
        return Destination(real, real.with_name(real.name + suffix) if suffix else None, in_place=True)
    assert out_dir is not None
    relative = _absolute(item.path).relative_to(dest_root)
    return Destination(out_dir / _renamed(relative, renames), copy_unreadable_to=out_dir / relative)


def _copy_others(
    config: RunConfig, found: list[Found], out_dir: Path, dest_root: Path, emitter: Emitter
) -> tuple[Outcome, int]:
    """Mirror every other file of the input directories (build files, data), so the mirror builds; returns the
    outcome and how many files the mirror holds."""
    sources = {f.real for f in found}
    real_out = out_dir.resolve()
    directories = [Path(p) for p in config.paths if os.path.isdir(p)]
    others, problems = discover(directories, (), config.exclude, config.use_gitignore)
    outcome = Outcome.OK
    copied = 0
    for problem in problems:
        if not config.quiet or problem.fatal:
            message(f"{problem.path}: {'error' if problem.fatal else 'note'}: {problem.message}")
    for item in others:
        if item.real in sources or _inside(item.resolved, real_out):
            continue
        target = out_dir / _absolute(item.path).relative_to(dest_root)
        if not _same_copy(item.path, target):  # a mirror kept up to date copies only what changed
            outcome = max(outcome, emitter.copy_as_is(item.path, target))
        copied += 1
    return outcome, copied


def _same_copy(src: Path, dst: Path) -> bool:
    """``dst`` is a copy of ``src`` made earlier (copies keep the modification time)."""
    try:
        a, b = src.stat(), dst.stat()
    except OSError:
        return False
    return a.st_size == b.st_size and a.st_mtime_ns == b.st_mtime_ns


def _report_format(config: RunConfig) -> str:
    fmt = config.report_format or Path(config.report).suffix.lstrip(".").lower()
    fmt = "md" if fmt == "markdown" else fmt
    if fmt not in FORMATS:
        raise UsageError(f"cannot tell the report format from {config.report!r}; pass --report-format")
    return fmt


def _load_validation(path: Path) -> list[dict[str, object]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read validation results {path}: {exc}") from None
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list):
        raise UsageError(f"{path} is not the JSON of 'hipify-py validate --json'")
    return [r for r in results if isinstance(r, dict)]


def _finish(config: RunConfig, report: Report) -> None:
    if config.print_stats or config.mode == OutputMode.EXAMINE:
        from .stats import print_stats

        print_stats(report, to_stdout=config.mode == OutputMode.EXAMINE)
    if config.report:
        if config.validation:
            report.validation = _load_validation(Path(config.validation))
        write_report(Path(config.report), render(report, _report_format(config)))
