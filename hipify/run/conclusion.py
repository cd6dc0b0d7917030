"""The end of a run: the findings and summary lines, the statistics, the report file."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from ..model import Severity
from ..output.emit import Emitter, OutputMode, message, write_report
from ..output.summary import RunSummary, check_lines, held_back_line, summary_line
from ..reports.findings import IncludeHints
from ..reports.report import Report
from ..reports.report_render import render
from .request import STDIN, RunConfig, UsageError, _report_format


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


def _load_validation(path: Path) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """The compile results and the --run results of a `validate --json` file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read validation results {path}: {exc}") from None
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list):
        raise UsageError(f"{path} is not the JSON of 'hipify-py validate --json'")
    runs = data.get("run") if isinstance(data.get("run"), list) else []
    return [r for r in results if isinstance(r, dict)], [r for r in runs if isinstance(r, dict)]


def _finish(config: RunConfig, report: Report) -> None:
    if config.print_stats or config.mode == OutputMode.EXAMINE:
        from ..reports.stats import print_stats

        print_stats(report, to_stdout=config.mode == OutputMode.EXAMINE)
    if config.report:
        if config.validation:
            report.validation, report.validation_runs = _load_validation(Path(config.validation))
        write_report(Path(config.report), render(report, _report_format(config)))
