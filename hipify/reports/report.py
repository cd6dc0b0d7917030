"""The porting report: what was converted, what was not, and where. Built from FileResults."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cached_property
from importlib import resources

from ..knowledge.codes import CODES, ROCM_DEPENDENT, SUPPORT_EDIT_CODES, UNCONVERTED_CODES
from ..knowledge.table import table_for
from ..model import Diagnostic, FileResult, Severity
from ..options import Options
from ..version import __version__
from .work import EFFORT_RULE, EFFORTS, WORK_KINDS, Advisor, effort, minimum_rocm, work_kind

MAX_SOURCE_LINE = 240  # characters of a finding's source line kept in the report


@dataclass(frozen=True)
class WorkItem:
    """One thing to do (or done) for the port: a CUDA name, or one environment finding."""

    kind: str  # see hipify.reports.work.WORK_KINDS
    subject: str  # the CUDA name, or the finding's message for environment items
    code: str
    count: int
    files: tuple[str, ...]
    flag: str = ""  # the flag that translates it (kind "flag")
    hint: str = ""  # one line: what to do, what HIP offers instead
    where: str = ""  # path:line of the first occurrence


@dataclass(frozen=True)
class FileEntry:
    """All the report (and the run's findings) keep of one file's result: what a later run that
    reuses the result needs, without its text."""

    path: str
    display: str
    error: Diagnostic | None = None
    changed: bool = False
    cached: bool = False
    engine: str = ""
    edits: int = 0
    rules: tuple[tuple[str, int], ...] = ()  # edits per rule code, first seen first
    converted: tuple[tuple[str, int], ...] = ()  # translated CUDA names and how often, first seen first
    diagnostics: tuple[Diagnostic, ...] = ()
    source_lines: tuple[tuple[tuple[str, int], str], ...] = ()  # ((path, line), text) of the findings' lines

    @classmethod
    def of(cls, result: FileResult) -> FileEntry:
        if result.error is not None:
            return cls(result.path, result.display, result.error)
        rules: Counter[str] = Counter()
        converted: Counter[str] = Counter()
        for edit in result.edits:
            rules[edit.code] += 1
            if edit.subject and edit.code not in SUPPORT_EDIT_CODES:
                converted[edit.subject] += 1
        lines = result.original.splitlines() if result.diagnostics else []
        source_lines = {
            (d.path, d.line): lines[d.line - 1].rstrip()[:MAX_SOURCE_LINE]
            for d in result.diagnostics
            if 0 < d.line <= len(lines)
        }
        return cls(
            result.path,
            result.display,
            None,
            result.changed,
            result.cached,
            result.engine,
            len(result.edits),
            tuple(rules.items()),
            tuple(converted.items()),
            result.diagnostics,
            tuple(source_lines.items()),
        )

    def reused(self) -> FileEntry:
        """The entry of the same result, taken from a cache."""
        return replace(self, cached=True)


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
    # Its `validate --run` verdicts (an NVIDIA GPU, or the CPU through HIP-CPU): shown beside the compile verdicts.
    validation_runs: list[dict[str, object]] = field(default_factory=list)
    # The compatibility header the translation relies on: (path, entry names); ("", ()) if none.
    compat_header: tuple[str, tuple[str, ...]] = ("", ())
    # The options of the run: which flags resolve what, which ROCm release the names need.
    options: Options = field(default_factory=Options)
    # The source line of each finding: (path, line) -> text, from the original file.
    source_lines: dict[tuple[str, int], str] = field(default_factory=dict)
    # Translated CUDA names by file (for the per-file view).
    converted_in: dict[str, Counter[str]] = field(default_factory=dict)

    def add(self, result: FileResult) -> None:
        self.add_entry(FileEntry.of(result))

    def add_entry(self, entry: FileEntry) -> None:
        self.files += 1
        if entry.error is not None:
            self.errors += entry.error.severity == Severity.ERROR
            self.diagnostics.append(entry.error)
            failed = entry.error.severity == Severity.ERROR
            self.per_file.append(
                {
                    "path": entry.display,
                    "error": entry.error.message,
                    "code": entry.error.code,
                    "effort": effort(0, True, False, failed),
                }
            )
            return
        self.changed += entry.changed
        self.cached += entry.cached
        self.engines[entry.engine] += 1
        self.converted_by_rule.update(dict(entry.rules))
        converted: Counter[str] = Counter(dict(entry.converted))
        self.converted.update(converted)
        self.converted_in[entry.display] = converted
        self.source_lines.update(entry.source_lines)
        unconverted = 0
        kinds: Counter[str] = Counter()
        hand: set[str] = set()
        for diag in entry.diagnostics:
            self.diagnostics.append(diag)
            kind = work_kind(diag.code)
            kinds[kind] += 1
            if kind == "hand":
                hand.add(diag.subject or diag.message)
            if diag.code in UNCONVERTED_CODES:
                unconverted += 1
                self.unconverted[diag.subject or diag.message] += 1
        failed = any(d.severity == Severity.ERROR for d in entry.diagnostics)
        self.per_file.append(
            {
                "path": entry.display,
                "engine": entry.engine,
                "changed": entry.changed,
                "edits": entry.edits,
                "unconverted": unconverted,
                "effort": effort(len(hand), bool(kinds["flag"] or kinds["environment"]), bool(kinds["review"]), failed),
                "work": {k: kinds[k] for k in WORK_KINDS if k != "translated"}
                | {"translated": sum(converted.values())},
            }
        )

    @property
    def unconverted_total(self) -> int:
        return sum(self.unconverted.values())

    @cached_property
    def advisor(self) -> Advisor:
        return Advisor(table_for(self.options), self.options)

    def rocm_dependent(self) -> dict[str, list[Diagnostic]]:
        """Per file, the uses whose translation another ROCm release the table knows writes otherwise (HPY022), in
        file order: the lines a port that builds with more than one release has to look at."""
        found: dict[str, list[Diagnostic]] = {}
        for diag in self.diagnostics:
            if diag.code == ROCM_DEPENDENT:
                found.setdefault(diag.path, []).append(diag)
        return found

    def work_items(self) -> dict[str, list[WorkItem]]:
        """What the port needs, grouped by kind of work (most frequent first in each group)."""
        groups: dict[tuple[str, str, str], list[Diagnostic]] = {}
        for diag in self.diagnostics:
            if diag.code == ROCM_DEPENDENT:
                continue  # not work: listed per file apart (rocm_dependent)
            kind = work_kind(diag.code)
            subject = diag.subject or diag.message
            if diag.code == "HPY203" and diag.subject:  # one parse error, however many files met it
                subject = f"parse error: {diag.subject}"
            groups.setdefault((kind, diag.code, subject), []).append(diag)
        items: dict[str, list[WorkItem]] = {k: [] for k in WORK_KINDS}
        for name, count in self.converted.items():
            files = tuple(path for path, names in self.converted_in.items() if name in names)
            note = self.advisor.signature_note(name)
            target = "review" if note else "translated"
            items[target].append(WorkItem(target, name, "HPY001", count, files, hint=note))
        for (kind, code, subject), diags in groups.items():
            advice = self.advisor.advise(diags[0])
            first = diags[0]
            where = f"{first.path}:{first.line}" if first.line else first.path
            files = tuple(dict.fromkeys(d.path for d in diags))
            items[kind].append(WorkItem(kind, subject, code, len(diags), files, advice.flag, advice.hint, where))
        for kind in items:
            items[kind].sort(key=lambda i: (-i.count, i.subject))
        return items

    def minimum_rocm(self) -> str:
        """The ROCm release the translation needs at least: the newest first release of the names it uses."""
        return minimum_rocm(self.advisor.since(name) for name in self.converted)

    def efforts(self) -> dict[str, int]:
        counts = dict.fromkeys(EFFORTS, 0)
        for entry in self.per_file:
            counts[str(entry["effort"])] += 1
        return counts

    def to_dict(self) -> dict[str, object]:
        items = self.work_items()
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
                "effort": self.efforts(),
                "work": {kind: sum(i.count for i in items[kind]) for kind in WORK_KINDS},
                "minimum_rocm": self.minimum_rocm(),
                "target_rocm": ".".join(map(str, self.options.rocm_version)),
            },
            "effort_rule": EFFORT_RULE,
            "converted": dict(sorted(self.converted.items())),
            "converted_by_rule": dict(sorted(self.converted_by_rule.items())),
            "unconverted": dict(sorted(self.unconverted.items())),
            "work": {kind: [_item_dict(i) for i in items[kind]] for kind in WORK_KINDS},
            "files": self.per_file,
            "diagnostics": [self._diag_dict(d) for d in self.diagnostics],
            "validation": self.validation,
            "validation_runs": self.validation_runs,
            "compat_header": {"path": self.compat_header[0], "entries": list(self.compat_header[1])},
            "rocm_dependent": [
                {
                    "path": path,
                    "line": d.line,
                    "subject": d.subject,
                    "message": d.message,
                    "source": self.source_line(d),
                }
                for path, diags in self.rocm_dependent().items()
                for d in diags
            ],
        }

    def source_line(self, diag: Diagnostic) -> str:
        return self.source_lines.get((diag.path, diag.line), "")

    def _diag_dict(self, diag: Diagnostic) -> dict[str, object]:
        return {
            "path": diag.path,
            "line": diag.line,
            "column": diag.col,
            "code": diag.code,
            "severity": diag.severity.value,
            "kind": work_kind(diag.code),
            "subject": diag.subject,
            "message": diag.message,
            "source": self.source_line(diag),
        }

    def run_rows(self) -> list[tuple[str, str, str, str, str, str]]:
        """(program, engine, compile verdicts, where it ran, run verdict, reason) per run result."""
        compiled: dict[tuple[str, str], list[str]] = {}
        for item in self.validation:
            key = (str(item.get("program", "")), str(item.get("engine", "")))
            compiled.setdefault(key, []).append(str(item.get("result", "")))
        rows = []
        for run in self.validation_runs:
            key = (str(run.get("program", "")), str(run.get("engine", "")))
            verdicts = "/".join(dict.fromkeys(compiled.get(key, []))) or "-"
            reason = str(run.get("reason") or "")
            rows.append((*key, verdicts, str(run.get("runtime", "")), str(run.get("result", "")), reason))
        return rows

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


def _item_dict(item: WorkItem) -> dict[str, object]:
    return {
        "subject": item.subject,
        "code": item.code,
        "count": item.count,
        "files": list(item.files),
        "flag": item.flag,
        "hint": item.hint,
        "where": item.where,
    }


def report_schema() -> dict[str, object]:
    """The JSON schema of the JSON report (shipped in the package: hipify/data/report.schema.json)."""
    data = json.loads((resources.files("hipify") / "data" / "report.schema.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def render_text(report: Report, fmt: str) -> str:
    """The report in one of the text formats (all but html, which ``report_render`` adds)."""
    if fmt == "json":
        return json.dumps(report.to_dict(), indent=2) + "\n"
    if fmt == "csv":
        return _csv(report)
    if fmt == "md":
        return _markdown(report)
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


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _markdown_table(title: str, columns: list[str], rows: list[list[str]]) -> list[str]:
    """A section: its title, then a table (a column named ``x:`` is right-aligned, as numbers are)."""
    head = "| " + " | ".join(c.rstrip(":") for c in columns) + " |"
    rule = "|" + "|".join("---:" if c.endswith(":") else "---" for c in columns) + "|"
    return [f"## {title}", "", head, rule, *("| " + " | ".join(r) + " |" for r in rows), ""]


def _markdown(report: Report) -> str:
    s = report.to_dict()["summary"]
    assert isinstance(s, dict)
    effort = report.efforts()
    items = report.work_items()
    lines = [
        "# hipify-py porting report",
        "",
        f"- Files: {s['files']} ({s['changed']} changed, {s['errors']} errors)",
        f"- Converted references: {s['converted']}",
        f"- Unconverted references: {s['unconverted']}",
        "- Effort: " + ", ".join(f"{n} {level}" for level, n in effort.items()),
        f"- Minimum ROCm the port needs: {s['minimum_rocm'] or 'any'} (target {s['target_rocm']})",
        "",
        f"Effort rule: {EFFORT_RULE}.",
        "",
    ]
    sections: list[tuple[str, list[str], list[list[str]]]] = [
        ("Needs hand work", ["API", "count:", "hint", "first use"],
         [[f"`{_cell(i.subject)}`", str(i.count), _cell(i.hint), _cell(i.where)] for i in items["hand"]]),
        ("Needs a flag", ["API", "flag", "count:"],
         [[f"`{_cell(i.subject)}`", f"`{_cell(i.flag)}`", str(i.count)] for i in items["flag"]]),
        ("Environment only", ["finding", "count:", "what to do"],
         [[_cell(i.subject), str(i.count), _cell(i.hint)] for i in items["environment"]]),
        ("Worth a review", ["what", "count:", "why"],
         [[f"`{_cell(i.subject)}`", str(i.count), _cell(i.hint)] for i in items["review"]]),
        ("Files", ["file", "effort"], [[_cell(e["path"]), str(e["effort"])] for e in report.per_file]),
        ("Unconverted CUDA APIs", ["API", "count:"], [[f"`{n}`", str(c)] for n, c in report.unconverted.most_common()]),
        ("Converted CUDA APIs", ["API", "count:"], [[f"`{n}`", str(c)] for n, c in report.converted.most_common()]),
    ]  # fmt: skip
    for title, columns, rows in sections:
        if rows:
            lines += _markdown_table(title, columns, rows)
    dependent = report.rocm_dependent()
    if dependent:
        lines += [
            "## Lines whose translation depends on the ROCm release",
            "",
            f"Translated for ROCm {s['target_rocm']}; another release the table knows writes these otherwise (HPY022).",
            "",
            "| location | source line | translation by release |",
            "|---|---|---|",
        ]
        for path, diags in dependent.items():
            for d in diags:
                source = f"`{_cell(report.source_line(d))}`" if report.source_line(d) else ""
                lines.append(f"| {path}:{d.line} | {source} | {_cell(d.message)} |")
        lines.append("")
    if report.validation:
        lines += [
            "## Compile validation (hipify-py validate)",
            "",
            "| program | engine | arch | result | first error (CUDA line) / reason |",
            "|---|---|---|---|---|",
        ]
        for row in report.validation_rows():
            lines.append("| " + " | ".join(_cell(cell) for cell in row) + " |")
        lines.append("")
    if report.validation_runs:
        lines += [
            "## Run validation (hipify-py validate --run)",
            "",
            "| program | engine | compiled | ran on | result | reason |",
            "|---|---|---|---|---|---|",
        ]
        for run_row in report.run_rows():
            lines.append("| " + " | ".join(_cell(cell) for cell in run_row) + " |")
        lines.append("")
    if report.diagnostics:
        lines += ["## Findings", "", "| location | code | message | source line |", "|---|---|---|---|"]
        for d in report.diagnostics:
            source = f"`{_cell(report.source_line(d))}`" if report.source_line(d) else ""
            lines.append(f"| {d.path}:{d.line}:{d.col} | {d.code} | {_cell(d.message)} | {source} |")
        lines.append("")
    return "\n".join(lines)


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
