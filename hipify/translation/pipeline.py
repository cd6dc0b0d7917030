"""Per-file work: read -> translate -> FileResult.

Runs in supervised worker processes (``hipify.machinery.supervise``): it computes and returns values, it
never writes outputs or prints. The job functions here are what the run hands the workers:
``scan``, ``process``, ``process_decoded``, and ``fallback`` for a file whose clang
translation crashed or ran out of time or memory.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ..buildfiles.dispatch import kind_of
from ..compat import load_catalog
from ..knowledge.codes import ENGINE_FALLBACK, TRANSLATION_FAILED
from ..knowledge.table import table_for
from ..machinery.cache import ResultCache, cache_key
from ..model import Diagnostic, FileResult, FileTask, Severity
from ..project.scan import FileScan, scan_text
from ..sources.fileio import DecodedSource, SourceError
from ..sources.kept import read_kept, take_read
from .api import Result, translate
from .engines import engine_environment


def scan(task: FileTask) -> FileScan:
    """The project scan of one file (cached by content like translations); approximate where that is cheaper
    (``FileScan.approximate``: the model asks for :func:`scan_exact` where it matters)."""
    return _scan(task, exact=False)


def scan_exact(task: FileTask) -> FileScan:
    """The project scan of one file, its uses exact."""
    return _scan(task, exact=True)


def _scan(task: FileTask, exact: bool) -> FileScan:
    table = table_for(task.options)
    try:
        decoded = read_kept(task.path, task.encoding, task.max_size)  # kept for the file's translation
    except SourceError:
        return FileScan(task.path, readable=False)  # its translation reports why
    cache = ResultCache(Path(task.cache_dir)) if task.cache_dir and task.options.use_cache else None
    key = ""
    if cache is not None:
        kind = "scan" if exact else "scan-approximate"
        key = cache_key(decoded.text, "scan:" + task.path, table.digest, task.options.cache_key(), kind)
        hit = cache.get(key, FileScan)
        if isinstance(hit, FileScan):
            return hit
    found = scan_text(task.path, decoded.text, table, task.options, exact=exact)
    if cache is not None:
        cache.put(key, found)
    return found


def process(task: FileTask) -> FileResult:
    try:
        decoded: DecodedSource = take_read(task.path, task.encoding, task.max_size)  # the scan's, if kept
    except SourceError as err:
        severity = Severity.WARNING if err.code == "HPY302" else Severity.ERROR
        error = Diagnostic(err.code, err.message, severity=severity, path=task.display)
        return FileResult(task.path, task.display, error=error)
    return translate_decoded(task, decoded)


def process_decoded(job: tuple[FileTask, DecodedSource]) -> FileResult:
    """``process`` for text already read (stdin)."""
    return translate_decoded(*job)


@dataclass(frozen=True)
class Fallback:
    """Translate ``task`` with the regex engine, because the chosen engine failed on it."""

    task: FileTask
    reason: str  # what happened to the first try, for the note
    decoded: DecodedSource | None = None  # the text, when it was not read from task.path


def fallback(job: Fallback) -> FileResult:
    regex = replace(job.task, options=replace(job.task.options, engine="regex"))
    if job.decoded is None:
        result = process(regex)
    else:
        result = translate_decoded(regex, job.decoded)
    if result.error is not None:
        return result
    note = Diagnostic(
        ENGINE_FALLBACK,
        f"the {job.task.options.engine} engine's translation failed: {job.reason}; used the regex engine",
        severity=Severity.WARNING,
        path=job.task.display,
    )
    return replace(result, diagnostics=(note,) + result.diagnostics)


def failed(task: FileTask, reason: str) -> FileResult:
    """The result of a file whose every translation attempt failed: left as it is, and said so."""
    error = Diagnostic(
        TRANSLATION_FAILED, f"translation failed: {reason}; left unchanged", severity=Severity.ERROR, path=task.display
    )
    return FileResult(task.path, task.display, error=error)


def translate_decoded(task: FileTask, decoded: DecodedSource) -> FileResult:
    table = table_for(task.options)
    result: Result | None = None
    cache = ResultCache(Path(task.cache_dir)) if task.cache_dir and task.options.use_cache else None
    key = ""
    if cache is not None:
        key = cache_key(
            decoded.text,
            Path(task.path).suffix + ":" + (kind_of(task.display) or ""),  # a Makefile is not read as C++
            table.digest + load_catalog().digest,
            task.options.cache_key() + repr(task.project),
            engine_environment(task.options),
        )
        hit = cache.get(key, Result)
        if isinstance(hit, Result):
            result = hit
    cached = result is not None
    if result is None:
        result = translate(decoded.text, path=task.display, options=task.options, table=table, project=task.project)
        if cache is not None:
            cache.put(key, result, result.inputs)
    diagnostics = tuple(d if d.path == task.display else replace(d, path=task.display) for d in result.diagnostics)
    if decoded.note:
        diagnostics = (Diagnostic("HPY307", decoded.note, severity=Severity.WARNING, path=task.display), *diagnostics)
    return FileResult(
        task.path,
        task.display,
        decoded.text,
        result.text,
        decoded.fmt,
        decoded.raw,
        result.edits,
        diagnostics,
        result.engine,
        None,
        cached,
        result.compat,
        result.inputs,
    )
