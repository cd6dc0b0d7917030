"""One translation run: discover -> tasks -> supervised workers -> emit/report -> exit code.

The CLI builds a :class:`RunConfig` and calls :func:`run`; this module decides the order
of things, the emitter writes, the workers (``pipeline.process``) compute. A file whose
translation crashes, hangs or exhausts memory costs only that file (``hipify.supervise``).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .compat import HEADER_NAME, entries_in, is_generated, load_catalog
from .compat import render as render_compat
from .discover import DEFAULT_EXTENSIONS, Found, Problem, discover
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
from .fileio import DEFAULT_MAX_SIZE, SourceError, decode, read_regular
from .findings import DEFAULT_MAX_FINDINGS, IncludeHints
from .model import FileResult, FileTask, ProjectFacts, Severity
from .options import Options
from .pipeline import Fallback, failed, fallback, process, process_decoded, scan
from .project.graph import ProjectModel, build_model, file_key
from .project.scan import FileScan
from .report import Report
from .report_render import FORMATS, render
from .summary import RunSummary, check_lines, held_back_line, summary_line
from .supervise import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_S, Failure, Job, Limits, Supervisor
from .table import table_for
from .vcs import VcsError, changed_files

STDIN = "-"


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
    table_for(config.options)  # load once in the parent: forked workers share it
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
    found, problems = discover([Path(p) for p in config.paths], config.extensions, config.exclude, config.use_gitignore)
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
    model = _project_model(config, found, renames, workers)
    selected = _changed(config, found, model) if config.changed_since or config.staged else found
    tasks = []
    for f in selected:
        facts = model.facts_for(str(f.path))
        output = _output_path(f, config, out_dir, dest_root, renames)
        facts = replace(facts, compat_include=_relative_include(compat_header, output))
        tasks.append(_task(config, str(f.path), _display(f), facts))
    show_progress = len(tasks) > 20 and config.progress and not config.quiet and sys.stderr.isatty()
    jobs = [Job(process, t) for t in tasks]
    results = _progress(workers.map(jobs, _translation_failed), len(tasks), show_progress)
    for item, result in zip(selected, results, strict=True):
        report.add(result)
        compat.update(result.compat)
        dest = _destination(item, config, out_dir, dest_root, renames)
        outcome = max(outcome, emitter.emit(result, dest, item.explicit))
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
    return item.path.resolve()


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
    if job.fn is fallback:
        first: Fallback = job.arg
        return failed(first.task, f"{first.reason}; then the regex engine: {failure.describe()}")
    task, decoded = job.arg if job.fn is process_decoded else (job.arg, None)
    if task.options.engine == "regex":
        return failed(task, failure.describe())
    return Job(fallback, Fallback(task, failure.describe(), decoded))


def _scan_failed(job: Job[FileScan], failure: Failure) -> FileScan:
    return FileScan(job.arg.path, readable=False)  # its translation runs (and reports) separately


def _task(config: RunConfig, path: str, display: str, project: ProjectFacts | None = None) -> FileTask:
    return FileTask(
        path, display, config.options, config.encoding, config.max_size, project or ProjectFacts(), config.cache_dir
    )


def _project_model(config: RunConfig, found: list[Found], renames: dict[str, str], workers: Supervisor) -> ProjectModel:
    """Scan every input (and the project headers they reach) and build the include graph."""

    def scan_more(paths: Sequence[str]) -> list[FileScan]:
        return list(workers.map([Job(scan, _task(config, p, p)) for p in paths], _scan_failed))

    scans = scan_more([str(f.path) for f in found])
    include_renames = dict(_include_renames(found, renames))
    return build_model(scans, scan_more, config.options.include_dirs, include_renames)


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
    return path == directory or directory in path.parents


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
    kept = []
    for item in found:
        root = item.root.resolve()
        if (
            not item.explicit
            and real_out != root
            and _inside(real_out, root)
            and _inside(item.path.resolve(), real_out)
        ):
            continue
        kept.append(item)
    return kept


def _inside_walked_trees(found: list[Found]) -> tuple[list[Found], list[Problem]]:
    """In place, a walk follows a symbolic link only to a file inside the tree it walks (HPY309)."""
    kept: list[Found] = []
    outside: list[Problem] = []
    for item in found:
        real = item.path.resolve()
        if item.explicit or _inside(real, item.root.resolve()):
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
        real = item.path.resolve()
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
    sources = {f.path.resolve() for f in found}
    real_out = out_dir.resolve()
    directories = [Path(p) for p in config.paths if os.path.isdir(p)]
    others, problems = discover(directories, (), config.exclude, config.use_gitignore)
    outcome = Outcome.OK
    copied = 0
    for problem in problems:
        if not config.quiet or problem.fatal:
            message(f"{problem.path}: {'error' if problem.fatal else 'note'}: {problem.message}")
    for item in others:
        real = item.path.resolve()
        if real in sources or _inside(real, real_out):
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
