"""The porting report: what was converted, what was not, and where. Built from FileResults."""

from __future__ import annotations

import csv
import html
import io
import json
from collections import Counter
from dataclasses import dataclass, field

from . import __version__
from .codes import CODES, SUPPORT_EDIT_CODES, UNCONVERTED_CODES
from .model import Diagnostic, FileResult, Severity

FORMATS = ("json", "csv", "md", "html", "sarif")


@dataclass
class Report:
    files: int = 0
    changed: int = 0
    errors: int = 0
    cached: int = 0
    converted: Counter[str] = field(default_factory=Counter)  # CUDA name -> count
    converted_by_rule: Counter[str] = field(default_factory=Counter)
    unconverted: Counter[str] = field(default_factory=Counter)  # CUDA name -> count
    diagnostics: list[Diagnostic] = field(default_factory=list)
    per_file: list[dict[str, object]] = field(default_factory=list)
    engines: Counter[str] = field(default_factory=Counter)
    # Results of `hipify-py validate --json` (compile/run checks), merged in with --validation.
    validation: list[dict[str, object]] = field(default_factory=list)
    # The compatibility header the translation relies on: (path, entry names); ("", ()) if none.
    compat_header: tuple[str, tuple[str, ...]] = ("", ())

    def add(self, result: FileResult) -> None:
        self.files += 1
        if result.error is not None:
            self.errors += result.error.severity == Severity.ERROR
            self.diagnostics.append(result.error)
            self.per_file.append({"path": result.display, "error": result.error.message, "code": result.error.code})
            return
        self.changed += result.changed
        self.cached += result.cached
        self.engines[result.engine] += 1
        for edit in result.edits:
            self.converted_by_rule[edit.code] += 1
            if edit.subject and edit.code not in SUPPORT_EDIT_CODES:
                self.converted[edit.subject] += 1
        unconverted = 0
        for diag in result.diagnostics:
            self.diagnostics.append(diag)
            if diag.code in UNCONVERTED_CODES:
                unconverted += 1
                self.unconverted[diag.subject or diag.message] += 1
        self.per_file.append(
            {
                "path": result.display,
                "engine": result.engine,
                "changed": result.changed,
                "edits": len(result.edits),
                "unconverted": unconverted,
            }
        )

    @property
    def unconverted_total(self) -> int:
        return sum(self.unconverted.values())

    def to_dict(self) -> dict[str, object]:
        return {
            "tool": "hipify-py",
            "version": __version__,
            "summary": {
                "files": self.files,
                "changed": self.changed,
                "errors": self.errors,
                "cached": self.cached,
                "converted": sum(self.converted.values()),
                "unconverted": self.unconverted_total,
                "engines": dict(self.engines),
            },
            "converted": dict(sorted(self.converted.items())),
            "converted_by_rule": dict(sorted(self.converted_by_rule.items())),
            "unconverted": dict(sorted(self.unconverted.items())),
            "files": self.per_file,
            "diagnostics": [_diag_dict(d) for d in self.diagnostics],
            "validation": self.validation,
            "compat_header": {"path": self.compat_header[0], "entries": list(self.compat_header[1])},
        }

    def validation_rows(self) -> list[tuple[str, str, str, str, str]]:
        """(program, engine, arch, result, first error or reason) per validation result."""
        rows = []
        for item in self.validation:
            error = item.get("first_error")
            detail = str(item.get("reason") or "")
            if isinstance(error, dict):
                where = f"{error.get('original_file', '')}:{error.get('original_line', '')}".strip(":")
                detail = f"{where} {error.get('message', '')}".strip()
            rows.append(
                (
                    str(item.get("program", "")),
                    str(item.get("engine", "")),
                    str(item.get("arch", "")),
                    str(item.get("result", "")),
                    detail,
                )
            )
        return rows


def _diag_dict(diag: Diagnostic) -> dict[str, object]:
    return {
        "path": diag.path,
        "line": diag.line,
        "column": diag.col,
        "code": diag.code,
        "severity": diag.severity.value,
        "subject": diag.subject,
        "message": diag.message,
    }


def render(report: Report, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(report.to_dict(), indent=2) + "\n"
    if fmt == "csv":
        return _csv(report)
    if fmt == "md":
        return _markdown(report)
    if fmt == "html":
        return _html(report)
    if fmt == "sarif":
        return json.dumps(_sarif(report), indent=2) + "\n"
    raise ValueError(f"unknown report format {fmt!r}")


def _csv(report: Report) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["path", "line", "column", "code", "severity", "subject", "message"])
    for d in report.diagnostics:
        writer.writerow([d.path, d.line, d.col, d.code, d.severity.value, d.subject, d.message])
    return out.getvalue()


def _markdown(report: Report) -> str:
    s = report.to_dict()["summary"]
    assert isinstance(s, dict)
    lines = [
        "# hipify-py porting report",
        "",
        f"- Files: {s['files']} ({s['changed']} changed, {s['errors']} errors)",
        f"- Converted references: {s['converted']}",
        f"- Unconverted references: {s['unconverted']}",
        "",
    ]
    if report.unconverted:
        lines += ["## Unconverted CUDA APIs", "", "| API | count |", "|---|---:|"]
        lines += [f"| `{name}` | {n} |" for name, n in report.unconverted.most_common()]
        lines.append("")
    if report.converted:
        lines += ["## Converted CUDA APIs", "", "| API | count |", "|---|---:|"]
        lines += [f"| `{name}` | {n} |" for name, n in report.converted.most_common()]
        lines.append("")
    if report.validation:
        lines += [
            "## Compile validation (hipify-py validate)",
            "",
            "| program | engine | arch | result | first error (CUDA line) / reason |",
            "|---|---|---|---|---|",
        ]
        for row in report.validation_rows():
            lines.append("| " + " | ".join(cell.replace("|", "\\|").replace("\n", " ") for cell in row) + " |")
        lines.append("")
    if report.diagnostics:
        lines += ["## Findings", "", "| location | code | message |", "|---|---|---|"]
        for d in report.diagnostics:
            msg = d.message.replace("|", "\\|")
            lines.append(f"| {d.path}:{d.line}:{d.col} | {d.code} | {msg} |")
        lines.append("")
    return "\n".join(lines)


def _html(report: Report) -> str:
    s = report.to_dict()["summary"]
    assert isinstance(s, dict)

    def table(title: str, counts: Counter[str], cls: str) -> str:
        if not counts:
            return ""
        rows = "".join(f"<tr><td><code>{html.escape(k)}</code></td><td>{v}</td></tr>" for k, v in counts.most_common())
        return f'<h2>{title}</h2><table class="{cls}"><tr><th>API</th><th>count</th></tr>{rows}</table>'

    findings = "".join(
        f"<tr class='{d.severity.value}'><td>{html.escape(d.path)}:{d.line}:{d.col}</td><td>{d.code}</td>"
        f"<td>{html.escape(d.message)}</td></tr>"
        for d in report.diagnostics
    )
    validation = ""
    if report.validation:
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>"
            for row in report.validation_rows()
        )
        validation = (
            '<h2>Compile validation</h2><table id="validation"><tr><th>program</th><th>engine</th>'
            f"<th>arch</th><th>result</th><th>first error / reason</th></tr>{body}</table>"
        )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>hipify-py porting report</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse;margin-bottom:1.5em}}
td,th{{border:1px solid #ccc;padding:.25em .6em;text-align:left}}tr.error td{{background:#fdd}}
tr.warning td{{background:#ffd}}.summary td:first-child{{font-weight:bold}}</style></head>
<body><h1>hipify-py porting report</h1>
<table class="summary" id="summary"><tr><td>Files</td><td>{s["files"]}</td></tr>
<tr><td>Changed</td><td>{s["changed"]}</td></tr><tr><td>Errors</td><td>{s["errors"]}</td></tr>
<tr><td>Converted references</td><td id="converted">{s["converted"]}</td></tr>
<tr><td>Unconverted references</td><td id="unconverted">{s["unconverted"]}</td></tr></table>
{table("Unconverted CUDA APIs", report.unconverted, "unconverted")}
{table("Converted CUDA APIs", report.converted, "converted")}
{validation}
<h2>Findings</h2><table id="findings"><tr><th>location</th><th>code</th><th>message</th></tr>{findings}</table>
</body></html>
"""


def _sarif(report: Report) -> dict[str, object]:
    used = sorted({d.code for d in report.diagnostics if d.code in CODES})
    rules = [
        {"id": c, "name": CODES[c].name, "shortDescription": {"text": CODES[c].what}, "help": {"text": CODES[c].todo}}
        for c in used
    ]
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
    results = []
    for d in report.diagnostics:
        location: dict[str, object] = {"artifactLocation": {"uri": d.path}}
        if d.line:
            location["region"] = {"startLine": d.line, "startColumn": max(d.col, 1)}
        results.append(
            {
                "ruleId": d.code,
                "level": level[d.severity],
                "message": {"text": d.message},
                "locations": [{"physicalLocation": location}],
            }
        )
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "hipify-py",
                        "version": __version__,
                        "informationUri": "https://pypi.org/project/hipify-py/",
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
