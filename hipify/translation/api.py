"""The Python API: ``hipify.translate(text, path=..., options=...)``. Pure; never raises on bad input."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..buildfiles.build_phase import default_context, split_build_files
from ..buildfiles.dispatch import kind_of, translator
from ..compat import HEADER_NAME, load_catalog, render
from ..knowledge.codes import OTHER_BUILD_FILE, UNSOUND_LEFT_OUT
from ..knowledge.samples_helpers import helpers_of_entries, hip_version, without_helpers
from ..knowledge.table import MappingTable, table_for
from ..lexing.shared import clear as forget_lexings
from ..model import Diagnostic, Edit, LineIndex, ProjectFacts, Severity, SourceFile, located
from ..options import Options
from ..project.graph import ProjectModel, build_file_facts, build_model
from ..project.scan import FileScan, scan_file, scan_text
from ..rewrite.soundness import check_left_out
from .engines import run_engine
from .splice import apply

LEFT_OUT = "HPY010"  # the code of the edits that leave code out (rules/unavailable.py)


@dataclass(frozen=True)
class Result:
    text: str
    edits: tuple[Edit, ...]
    diagnostics: tuple[Diagnostic, ...]
    engine: str
    compat: tuple[str, ...] = ()  # entries of the compatibility header (hipify_compat.h) it relies on
    inputs: tuple[str, ...] = ()  # other files the translation depends on (see EngineResult)

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
    build = kind_of(path)
    if build is not None:  # a Makefile or CMakeLists.txt: its own translator, the same splice and findings
        return _translate_build(text, path, build, options, project)
    table = table_for(options) if table is None else table  # an empty table is falsy, and still the one asked for
    source = SourceFile(path, text, project or ProjectFacts())
    if source.project.other_build_file:  # the translated build never reads it: left as the project wrote it
        options_named = ", ".join(sorted(source.project.other_builds)) or "its platform options"
        note = Diagnostic(
            OTHER_BUILD_FILE,
            "only the project's other builds include this file (behind its own platform options, which the "
            f"translated build does not define); left as it is ({options_named} stay CUDA's elsewhere)",
            severity=Severity.INFO,
        )
        return Result(text, (), (located(note, LineIndex.of(text), path),), "none")
    engine_result = run_engine(source, table, options)
    fixed = apply(text, engine_result.edits)
    all_diagnostics = engine_result.diagnostics + fixed.diagnostics
    unsound = _unsound(text, fixed.text, fixed.applied)
    index = LineIndex.of(text) if any(not d.line for d in all_diagnostics) or unsound else LineIndex()
    if unsound:  # the file fails, not the run: left as it is, and said so
        failure = Diagnostic(
            UNSOUND_LEFT_OUT, f"internal check failed: {unsound}; left unchanged", severity=Severity.ERROR
        )
        diagnostics = tuple(located(d, index, path) for d in (failure, *all_diagnostics))
        return Result(text, (), diagnostics, engine_result.engine)
    diagnostics = tuple(located(d, index, path) for d in all_diagnostics)
    diagnostics = tuple(sorted(diagnostics, key=lambda d: (d.line, d.col, d.code)))
    return Result(
        fixed.text, fixed.applied, diagnostics, engine_result.engine, engine_result.compat, engine_result.inputs
    )


def _unsound(original: str, translated: str, applied: Sequence[Edit]) -> str:
    """What the soundness check finds wrong with the code this translation left out ("" when it left none out)."""
    if not any(e.code == LEFT_OUT for e in applied):
        return ""
    return check_left_out(original, translated, applied)


def _translate_build(text: str, path: str, kind: str, options: Options, project: ProjectFacts | None) -> Result:
    context = project.build if project is not None and project.build is not None else default_context(options)
    translate_build = translator(kind)
    assert translate_build is not None  # kind_of names only formats with a translator
    built = translate_build(text, path, context)
    fixed = apply(text, built.edits)
    all_diagnostics = built.diagnostics + fixed.diagnostics
    index = LineIndex.of(text) if any(not d.line for d in all_diagnostics) else LineIndex()
    diagnostics = tuple(
        sorted((located(d, index, path) for d in all_diagnostics), key=lambda d: (d.line, d.col, d.code))
    )
    return Result(fixed.text, fixed.applied, diagnostics, kind)


def translate_files(
    texts: Mapping[str, str],
    options: Options | None = None,
    table: MappingTable | None = None,
    compat_dir: str | None = None,
) -> dict[str, Result]:
    """Translate files as one project, as the command line does: every file's translation gets
    the project facts it needs (definitions a translation unit needs, the project's own names,
    the tree's include directories). ``texts`` maps each file's path on disk to its text; the
    include graph is resolved on disk around those paths. Files include the compatibility header
    (see :func:`compat_header`) from ``compat_dir`` (default: the files' common directory)."""
    return translate_project(texts, options, table, compat_dir).results


@dataclass(frozen=True)
class ProjectTranslation:
    """What :func:`translate_project` found: each file's translation, and the project model they were translated
    with (each file's scan: the names it uses, its includes, what it declares; the include graph)."""

    results: dict[str, Result]
    model: ProjectModel


def translate_project(
    texts: Mapping[str, str],
    options: Options | None = None,
    table: MappingTable | None = None,
    compat_dir: str | None = None,
) -> ProjectTranslation:
    """:func:`translate_files`, with the project model the translations were planned from."""
    options = options or Options()
    table = table_for(options) if table is None else table

    def scan_more(paths: Sequence[str]) -> list[FileScan]:
        return [scan_file(p, table, options) for p in paths]

    sources, builds = split_build_files(texts)  # build files are not C++: not scanned, told about the sources
    scans = [scan_text(path, texts[path], table, options) for path in sources]
    model = build_model(scans, scan_more, options.include_dirs)
    build_facts = build_file_facts(builds, model, (), options)
    if compat_dir is None:
        compat_dir = os.path.commonpath([os.path.dirname(os.path.abspath(p)) for p in texts]) if texts else "."
    header = os.path.join(compat_dir, HEADER_NAME)
    out = {}
    try:
        for path, text in texts.items():
            if path in build_facts:
                out[path] = translate(text, path, options, table, build_facts[path])
                continue
            include = Path(os.path.relpath(header, os.path.dirname(os.path.abspath(path)))).as_posix()
            project = replace(model.facts_for(path), compat_include=include)
            out[path] = translate(text, path, options, table, project)
    finally:
        forget_lexings()  # what the scan kept for the translations (and the headers only scanned)
    return ProjectTranslation(out, model)


def samples_helpers(results: Iterable[Result]) -> dict[str, str]:
    """The NVIDIA samples helpers the results' output gets, written beside the compatibility header: file name ->
    hipify-py's HIP version of it."""
    return {h: hip_version(h) for h in helpers_of_entries({n for result in results for n in result.compat})}


def compat_header(results: Iterable[Result], options: Options | None = None) -> str | None:
    """The compatibility header the results rely on (None when they need none)."""
    names = sorted(without_helpers({name for result in results for name in result.compat}))
    if not names:
        return None
    catalog = load_catalog()
    return render((catalog.by_entry_name[n] for n in names), (options or Options()).rocm_version, catalog)
