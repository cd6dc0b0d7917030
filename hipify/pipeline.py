"""Per-file work: read -> translate -> (rename includes) -> FileResult.

Runs in worker processes: it computes and returns values, it never writes outputs or prints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from .api import Result, translate
from .cache import ResultCache, cache_key
from .engines import clang_status
from .fileio import DecodedSource, SourceError, TextFormat, read_source
from .model import Diagnostic, Edit, Severity
from .options import Options
from .table import load_table


@dataclass(frozen=True)
class FileTask:
    path: str
    display: str  # how to name the file in messages
    options: Options
    encoding: str = "utf-8"
    max_size: int = 64 * 1024 * 1024
    include_renames: tuple[tuple[str, str], ...] = ()  # (old basename, new basename) for --rename-extensions
    cache_dir: str = ""  # "" = no cache


@dataclass(frozen=True)
class FileResult:
    path: str
    display: str
    original: str = ""
    text: str = ""
    fmt: TextFormat = field(default_factory=TextFormat)
    raw: bytes = b""
    edits: tuple[Edit, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    engine: str = ""
    error: Diagnostic | None = None
    cached: bool = False

    @property
    def changed(self) -> bool:
        return self.error is None and self.text != self.original


_INCLUDE_QUOTED = re.compile(r'^([ \t]*#[ \t]*include[ \t]*")([^"\n]+)(")', re.MULTILINE)


def rename_includes(text: str, renames: dict[str, str]) -> tuple[str, list[Edit]]:
    """Point quoted includes at files renamed by --rename-extensions (matched by basename)."""
    edits: list[Edit] = []

    def swap(match: re.Match[str]) -> str:
        name = match.group(2)
        head, _, base = name.rpartition("/")
        new_base = renames.get(base)
        if new_base is None:
            return match.group(0)
        new_name = f"{head}/{new_base}" if head else new_base
        edits.append(Edit(match.start(2), match.end(2), new_name, "HPY007", subject=name))
        return f"{match.group(1)}{new_name}{match.group(3)}"

    return _INCLUDE_QUOTED.sub(swap, text), edits


def _engine_environment(options: Options) -> str:
    if options.engine == "regex":
        return "regex"
    usable, reason = clang_status()
    return f"clang:{usable}:{reason}"


def process(task: FileTask) -> FileResult:
    try:
        decoded: DecodedSource = read_source(Path(task.path), task.encoding, task.max_size)
    except SourceError as err:
        severity = Severity.WARNING if err.code == "HPY302" else Severity.ERROR
        return FileResult(
            task.path, task.display, error=Diagnostic(err.code, err.message, severity=severity, path=task.display)
        )
    return translate_decoded(task, decoded)


def translate_decoded(task: FileTask, decoded: DecodedSource) -> FileResult:
    table = load_table()
    result: Result | None = None
    cache = ResultCache(Path(task.cache_dir)) if task.cache_dir and task.options.use_cache else None
    key = ""
    if cache is not None:
        key = cache_key(
            decoded.text,
            Path(task.path).suffix,
            table.digest,
            task.options.cache_key(),
            _engine_environment(task.options),
        )
        hit = cache.get(key)
        if isinstance(hit, Result):
            result = hit
    cached = result is not None
    if result is None:
        result = translate(decoded.text, path=task.display, options=task.options, table=table)
        if cache is not None:
            cache.put(key, result)
    diagnostics = tuple(d if d.path == task.display else replace(d, path=task.display) for d in result.diagnostics)
    text, edits = result.text, result.edits
    if task.include_renames:
        text, include_edits = rename_includes(text, dict(task.include_renames))
        edits = edits + tuple(include_edits)
    return FileResult(
        task.path,
        task.display,
        decoded.text,
        text,
        decoded.fmt,
        decoded.raw,
        edits,
        diagnostics,
        result.engine,
        None,
        cached,
    )
