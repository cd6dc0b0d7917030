"""Per-file work: read -> translate -> FileResult.

Runs in worker processes: it computes and returns values, it never writes outputs or prints.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from .api import Result, translate
from .cache import ResultCache, cache_key
from .compat import load_catalog
from .engines import clang_status
from .fileio import DecodedSource, SourceError, read_source
from .model import Diagnostic, FileResult, FileTask, Severity
from .options import Options
from .project.scan import FileScan, scan_text
from .table import table_for


def _engine_environment(options: Options) -> str:
    if options.engine == "regex":
        return "regex"
    usable, reason = clang_status()
    return f"clang:{usable}:{reason}"


def scan(task: FileTask) -> FileScan:
    """The project scan of one file (cached by content like translations)."""
    table = table_for(task.options)
    try:
        decoded = read_source(Path(task.path), task.encoding, task.max_size)
    except SourceError:
        return FileScan(task.path, readable=False)  # its translation reports why
    cache = ResultCache(Path(task.cache_dir)) if task.cache_dir and task.options.use_cache else None
    key = ""
    if cache is not None:
        key = cache_key(decoded.text, "scan:" + task.path, table.digest, task.options.cache_key(), "scan")
        hit = cache.get(key)
        if isinstance(hit, FileScan):
            return hit
    found = scan_text(task.path, decoded.text, table, task.options)
    if cache is not None:
        cache.put(key, found)
    return found


def process(task: FileTask) -> FileResult:
    try:
        decoded: DecodedSource = read_source(Path(task.path), task.encoding, task.max_size)
    except SourceError as err:
        severity = Severity.WARNING if err.code == "HPY302" else Severity.ERROR
        error = Diagnostic(err.code, err.message, severity=severity, path=task.display)
        return FileResult(task.path, task.display, error=error)
    return translate_decoded(task, decoded)


def translate_decoded(task: FileTask, decoded: DecodedSource) -> FileResult:
    table = table_for(task.options)
    result: Result | None = None
    cache = ResultCache(Path(task.cache_dir)) if task.cache_dir and task.options.use_cache else None
    key = ""
    if cache is not None:
        key = cache_key(
            decoded.text,
            Path(task.path).suffix,
            table.digest + load_catalog().digest,
            task.options.cache_key() + repr(task.project),
            _engine_environment(task.options),
        )
        hit = cache.get(key)
        if isinstance(hit, Result):
            result = hit
    cached = result is not None
    if result is None:
        result = translate(decoded.text, path=task.display, options=task.options, table=table, project=task.project)
        if cache is not None:
            cache.put(key, result)
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
    )
