"""The Python API: ``hipify.translate(text, path=..., options=...)``. Pure; never raises on bad input."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from .engines import run_engine
from .model import Diagnostic, Edit, LineIndex, ProjectFacts, SourceFile, located
from .options import Options
from .project.graph import build_model
from .project.scan import FileScan, scan_file, scan_text
from .splice import apply
from .table import MappingTable, load_table


@dataclass(frozen=True)
class Result:
    text: str
    edits: tuple[Edit, ...]
    diagnostics: tuple[Diagnostic, ...]
    engine: str

    @property
    def changed(self) -> bool:
        return bool(self.edits)


def translate(
    text: str,
    path: str = "<string>",
    options: Options | None = None,
    table: MappingTable | None = None,
    project: ProjectFacts | None = None,
) -> Result:
    """Translate CUDA source text to HIP. Diagnostics carry line/column and ``path``."""
    options = options or Options()
    table = load_table() if table is None else table  # an empty table is falsy, and still the one asked for
    source = SourceFile(path, text, project or ProjectFacts())
    engine_result = run_engine(source, table, options)
    fixed = apply(text, engine_result.edits)
    index = LineIndex.of(text)
    diagnostics = tuple(
        replace(located(d, index), path=path) if not d.line else replace(d, path=path)
        for d in engine_result.diagnostics + fixed.diagnostics
    )
    diagnostics = tuple(sorted(diagnostics, key=lambda d: (d.line, d.col, d.code)))
    return Result(fixed.text, fixed.applied, diagnostics, engine_result.engine)


def translate_files(
    texts: Mapping[str, str], options: Options | None = None, table: MappingTable | None = None
) -> dict[str, Result]:
    """Translate files as one project, as the command line does: every file's translation gets
    the project facts it needs (definitions a translation unit needs, the project's own names,
    the tree's include directories). ``texts`` maps each file's path on disk to its text; the
    include graph is resolved on disk around those paths."""
    options = options or Options()
    table = load_table() if table is None else table

    def scan_more(paths: Sequence[str]) -> list[FileScan]:
        return [scan_file(p, table, options) for p in paths]

    scans = [scan_text(path, text, table, options) for path, text in texts.items()]
    model = build_model(scans, scan_more, options.include_dirs)
    return {path: translate(text, path, options, table, model.facts_for(path)) for path, text in texts.items()}
