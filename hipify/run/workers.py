"""The files' translations in supervised workers: tasks, a crash's retry on the regex engine, progress, stdin."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from ..knowledge.table import table_for
from ..machinery.supervise import Failure, Job, Supervisor
from ..model import FileResult, FileTask, ProjectFacts
from ..output.emit import Destination, Emitter, Outcome, OutputMode, failure_line, message
from ..reports.report import Report
from ..sources.fileio import SourceError, decode
from .request import STDIN, RunConfig


def _run_stdin(config: RunConfig, emitter: Emitter, report: Report, workers: Supervisor) -> Outcome:
    from ..translation.pipeline import process_decoded

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


def _translation_failed(job: Job[FileResult], failure: Failure) -> Job[FileResult] | FileResult:
    """A worker crashed, ran out of time or memory on a file: retry it with the regex engine once,
    else report the file as failed."""
    from ..translation.pipeline import Fallback, failed, fallback, process_decoded

    if job.fn is fallback:
        first: Fallback = job.arg
        return failed(first.task, f"{first.reason}; then the regex engine: {failure.describe()}")
    task, decoded = job.arg if job.fn is process_decoded else (job.arg, None)
    if task.options.engine == "regex":
        return failed(task, failure.describe())
    return Job(fallback, Fallback(task, failure.describe(), decoded))


def _task(config: RunConfig, path: str, display: str, project: ProjectFacts | None = None) -> FileTask:
    return FileTask(
        path, display, config.options, config.encoding, config.max_size, project or ProjectFacts(), config.cache_dir
    )


def _translate(config: RunConfig, workers: Supervisor, tasks: list[FileTask]) -> Iterator[FileResult]:
    if not tasks:
        return iter(())
    table_for(config.options)  # load once in the parent: forked workers share it
    from ..translation.pipeline import process

    # Each file goes to the worker that scanned it, which kept the scan's lexing of its text.
    return workers.map([Job(process, t, home=t.path) for t in tasks], _translation_failed)


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
