"""``hipify-py shim``: read the project, plan its header, then write it, or check the one committed.

The inputs are found as a translation finds them (the same walk, ``.gitignore`` honoured); files this command
wrote (its header, its include folder) are not inputs. Findings are printed in gcc's form, one per place, and go
to the porting report with ``--report``; the exit code says whether ``--check`` found the header out of date.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..knowledge.table import table_for
from ..model import Diagnostic, Severity
from ..options import Options
from ..output.emit import message, write_report
from ..output.writing import write_atomic
from ..reports.findings import shown_path
from ..reports.report import MAX_SOURCE_LINE, FileEntry, Report
from ..reports.report_render import render as render_report
from ..sources.discover import DEFAULT_EXTENSIONS, discover
from ..sources.fileio import SourceError, read_source
from .check import Drift, drift_of_folder, drift_of_header
from .plan import GENERATED, ShimPlan, is_generated, plan_shim
from .render import render_header, render_include_dir
from .replace import replaced_header

EXIT_OK, EXIT_FOUND, EXIT_ERROR = 0, 1, 2
_REVIEW = frozenset((Severity.ERROR, Severity.WARNING))


@dataclass(frozen=True)
class ShimRequest:
    paths: tuple[str, ...]
    options: Options
    output: str = ""  # -o HEADER
    include_dir: str = ""  # --include-dir DIR
    replace: str = ""  # --replace HEADER: the project's own vendor header, written over with its own lines kept
    check: bool = False
    command: str = ""  # how the user asked for it, less --check: the fix --check prints
    report: str = ""
    report_format: str = ""
    exclude: tuple[str, ...] = ()
    use_gitignore: bool = True
    quiet: bool = False
    verbose: bool = False
    max_findings: int = 0  # 0: every finding


def run_shim(request: ShimRequest) -> int:
    texts, failed = _read_inputs(request)
    if not texts:
        message("hipify-py shim: no CUDA source files found")
        return EXIT_ERROR
    plan = plan_shim(texts, request.options)
    _print_findings(plan, request)
    if request.report:
        _write_report(plan, texts, request)
    if request.replace:
        return _replace(plan, texts, request, failed)
    if request.output:
        name = Path(request.output).name
        text = render_header(plan, name)
        if request.check:
            return _conclude_check(
                drift_of_header(Path(request.output), text, plan, texts, _cuda_names(request)), request, plan
            )
        write_atomic(Path(request.output), text.encode("utf-8"))
        _summary(f"wrote {request.output}", plan, request)
    else:
        files = render_include_dir(plan)
        folder = Path(request.include_dir)
        if request.check:
            return _conclude_check(drift_of_folder(folder, files, plan, texts, _cuda_names(request)), request, plan)
        _write_folder(folder, files)
        _summary(f"wrote {request.include_dir}/ ({len(files)} headers)", plan, request)
    return EXIT_ERROR if failed else EXIT_OK


def _read_inputs(request: ShimRequest) -> tuple[dict[str, str], bool]:
    """Every source under the paths, less what this command writes; whether some could not be read."""
    found, problems = discover(
        [Path(p) for p in request.paths], DEFAULT_EXTENSIONS, request.exclude, request.use_gitignore
    )
    failed = False
    for problem in problems:
        message(f"{problem.path}: {'error' if problem.fatal else 'note'}: {problem.message}")
        failed = failed or problem.fatal
    own = _own_outputs(request)
    texts: dict[str, str] = {}
    for item in found:
        resolved = item.resolved
        if any(resolved == o or o in resolved.parents for o in own):
            continue
        try:
            text = read_source(item.path).text
        except SourceError as exc:
            message(f"{shown_path(str(item.path))}: error: {exc}")
            failed = True
            continue
        if GENERATED in text[:400]:
            continue  # a header of ours written elsewhere: not the project's
        texts[str(item.path)] = text
    return texts, failed


def _cuda_names(request: ShimRequest) -> Mapping[str, object]:
    return table_for(request.options).by_name


def _own_outputs(request: ShimRequest) -> list[Path]:
    return [Path(p).resolve() for p in (request.output, request.include_dir, request.replace) if p]


def _write_folder(folder: Path, files: Mapping[str, str]) -> None:
    """Each file written atomically; a header an earlier run wrote there that this plan has no use for is removed
    (only ours: a file without the mark is never touched)."""
    folder.mkdir(parents=True, exist_ok=True)
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text.encode("utf-8"))
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = path.relative_to(folder).as_posix()
        if relative not in files and is_generated(path):
            path.unlink()


def _shown(plan: ShimPlan, request: ShimRequest) -> list[Diagnostic]:
    return [d for d in plan.findings if request.verbose or d.severity in _REVIEW]


def _print_findings(plan: ShimPlan, request: ShimRequest) -> None:
    if request.quiet:
        return
    shown = _shown(plan, request)
    limit = request.max_findings if request.max_findings > 0 and not request.verbose else len(shown)
    for diag in shown[:limit]:
        message(diag.format(shown_path(diag.path)))
    if len(shown) > limit:
        message(f"hipify-py shim: {len(shown) - limit} more findings (--max-findings 0 or --report FILE lists all)")


def _summary(done: str, plan: ShimPlan, request: ShimRequest) -> None:
    if request.quiet:
        return
    places = sum(1 for d in plan.findings if d.severity in _REVIEW)
    counts = ", ".join(
        _count(n, what)
        for n, what in (
            (len(plan.definitions), "CUDA name"),
            (len(plan.stand_ins), "CUDA header"),
            (len(plan.compat_entries), "compatibility entry"),
        )
    )
    left = f"{_count(places, 'place')} cannot be shimmed (each needs a HIP branch; listed above)" if places else ""
    message(f"hipify-py shim: {done}: {counts}, from {_count(plan.files, 'file')}; {left or 'nothing left'}")


def _count(n: int, what: str) -> str:
    if n == 1:
        return f"1 {what}"
    return f"{n} {what[:-1] + 'ies' if what.endswith('y') else what + 's'}"


def _conclude_check(drift: Drift, request: ShimRequest, plan: ShimPlan) -> int:
    where = request.output or request.include_dir
    if drift.clean:
        if not request.quiet:
            message(f"hipify-py shim --check: {where} is up to date ({len(plan.definitions)} CUDA names)")
        return EXIT_OK
    for line in drift.lines():
        message(line)
    message(f"hipify-py shim --check failed: {where} {drift.summary()}")
    message(f"  fix: {request.command}")
    return EXIT_FOUND


def _write_report(plan: ShimPlan, texts: Mapping[str, str], request: ShimRequest) -> None:
    report = Report(options=request.options)
    by_path: dict[str, list[Diagnostic]] = {}
    for diag in plan.findings:
        by_path.setdefault(diag.path, []).append(diag)
    for path in sorted(texts):
        found = tuple(by_path.get(path, ()))
        lines = texts[path].splitlines() if found else []
        source_lines = tuple(
            ((d.path, d.line), lines[d.line - 1].rstrip()[:MAX_SOURCE_LINE]) for d in found if 0 < d.line <= len(lines)
        )
        report.add_entry(FileEntry(path, shown_path(path), diagnostics=found, source_lines=source_lines))
    fmt = request.report_format or Path(request.report).suffix.lstrip(".") or "json"
    write_report(Path(request.report), render_report(report, fmt))


def _replace(plan: ShimPlan, texts: Mapping[str, str], request: ShimRequest, failed: bool) -> int:
    """``--replace HEADER``: the generated header with the project's own lines of HEADER kept; the CUDA names the
    project's header defines otherwise than the generated one are reported (HPY140)."""
    path = Path(request.replace)
    try:
        current = path.read_text(encoding="utf-8") if path.exists() else ""
    except (OSError, UnicodeDecodeError) as exc:
        message(f"{shown_path(str(path))}: error: {exc}")
        return EXIT_ERROR
    text, notes = replaced_header(plan, current, path.name, table_for(request.options), request.options)
    if not request.quiet:
        for note in notes:
            message(note.format(shown_path(str(path))))
    if request.check:
        drift = drift_of_header(path, text, plan, texts, _cuda_names(request))
        code = _conclude_check(drift, request, plan)
        return EXIT_FOUND if notes and not is_generated(path) else code
    write_atomic(path, text.encode("utf-8"))
    _summary(f"wrote {request.replace} (the project's own lines kept)", plan, request)
    return EXIT_ERROR if failed else EXIT_OK
