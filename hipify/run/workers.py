"""The files' translations in supervised workers: tasks, a crash's retry on the regex engine, progress, stdin."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from ..knowledge.table import table_for
from ..machinery.supervise import Failure, Job, Supervisor
from ..model import FileResult, FileTask, ProjectFacts
from ..output.emit import Destination, Emitter, Outcome, OutputMode, Placed, failure_line, message
from ..reports.report import Report
from ..sources.fileio import SourceError, decode
from .request import STDIN, RunConfig

T = TypeVar("T")


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


def _translation_failed(job: Job[Any], failure: Failure) -> Job[Any] | FileResult:
    """A worker crashed, ran out of time or memory on a file: retry it with the regex engine once,
    else report the file as failed."""
    from ..translation.pipeline import Fallback, failed, fallback, process_decoded
    from .placing import translate_and_write

    if job.fn is fallback:
        first: Fallback = job.arg
        return failed(first.task, f"{first.reason}; then the regex engine: {failure.describe()}")
    if job.fn is translate_and_write:  # the fallback's result comes back to the run, which writes it
        task, decoded = job.arg.task, None
    else:
        task, decoded = job.arg if job.fn is process_decoded else (job.arg, None)
    if task.options.engine == "regex":
        return failed(task, failure.describe())
    return Job(fallback, Fallback(task, failure.describe(), decoded))


def _task(config: RunConfig, path: str, display: str, project: ProjectFacts | None = None) -> FileTask:
    return FileTask(
        path, display, config.options, config.encoding, config.max_size, project or ProjectFacts(), config.cache_dir
    )


def _translate(
    config: RunConfig, workers: Supervisor, tasks: Iterable[tuple[FileTask, Destination | None, int]]
) -> Iterator[FileResult | Placed]:
    """Each task's translation, in order; in the modes that write a tree, written by its worker (``Placed``).
    ``tasks`` (a task, where it goes, the size of its input) is read as the workers need more."""
    writing = config.mode in (OutputMode.IN_PLACE, OutputMode.OUT_DIR)

    def jobs() -> Iterator[Job[FileResult | Placed]]:
        for i, (task, dest, size) in enumerate(tasks):
            if not i:  # no task (a warm run reuses every result): neither the table nor the translator is loaded
                table_for(config.options)  # loaded once in the parent: forked workers share it
                from ..translation.pipeline import process
                from .placing import WriteOrder, translate_and_write
            # Each file goes to the worker that scanned it, which kept the scan's reading and lexing of its text.
            if writing and dest is not None:
                order = WriteOrder(task, dest, config.mode, config.quiet)
                yield Job(translate_and_write, order, home=task.path, size=size)
            else:
                yield Job(process, task, home=task.path, size=size)

    return workers.map(jobs(), _translation_failed)


def _progress(results: Iterable[T], total: int, show: bool) -> Iterator[T]:
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
