"""Summaries of validation results: a rich table for people, JSON for the porting report."""

from __future__ import annotations

import json
import platform
from collections import Counter
from collections.abc import Iterable
from datetime import datetime, timezone
from typing import Any

from rich.console import Console
from rich.table import Table

from .build import BuildOutcome
from .runner import Result

STYLE = {
    "PASS": "green",
    "MATCH": "green",
    "FAIL": "red",
    "MISMATCH": "red",
    "ERROR": "red",
    "SKIPPED": "yellow",
    "NOT JUDGED": "yellow",
    "NAMED": "yellow",
}


def summary(results: Iterable[Result]) -> dict[str, int]:
    return dict(Counter(r.result for r in results))


def render(results: list[Result], console: Console, title: str = "hipify-py validate") -> None:
    table = Table(title=title, show_lines=False)
    for col in ("program", "engine", "arch", "result", "first error (mapped to the CUDA line) / reason"):
        table.add_column(col, overflow="fold")
    for r in results:
        detail = r.first_error.short() if r.first_error else r.reason
        if r.first_error and r.first_error.original_text:
            detail += f"\n    CUDA: {r.first_error.original_text}"
        style = STYLE.get(r.result, "")
        table.add_row(r.program, r.engine, r.arch, f"[{style}]{r.result}[/]" if style else r.result, detail)
    console.print(table)
    counts = summary(results)
    console.print(", ".join(f"{v} {k.lower()}" for k, v in sorted(counts.items())) or "nothing validated")


def _yes_no(value: bool | None) -> str:
    return "-" if value is None else ("[green]yes[/]" if value else "[red]no[/]")


def render_builds(builds: list[BuildOutcome], console: Console) -> None:
    """One row per program and engine built with its own translated build files."""
    table = Table(title="built with its own translated build files", show_lines=False)
    for col in ("program", "engine", "build", "configured", "compiled", "linked", "ran", "first error / reason"):
        table.add_column(col, overflow="fold")
    for b in builds:
        if b.not_judged:
            unknown = "[yellow]not judged[/]"
            table.add_row(b.program, b.engine, b.system, unknown, unknown, unknown, "-", b.not_judged)
            continue
        detail = b.first_error.short() if b.first_error else ""
        if b.first_error and b.first_error.original_text:
            detail += f"\n    CUDA: {b.first_error.original_text}"
        ran = b.ran or "-"
        table.add_row(
            b.program, b.engine, b.system, _yes_no(b.configured), _yes_no(b.compiled), _yes_no(b.linked), ran, detail
        )
    console.print(table)
    built = sum(b.built for b in builds)
    unjudged = sum(bool(b.not_judged) for b in builds)
    judged = f"; {unjudged} not judged (the toolchain lacks what they need)" if unjudged else ""
    console.print(f"{built} of {len(builds)} built (compiled and linked) with their own build files{judged}")


def to_json(results: list[Result], meta: dict[str, Any]) -> dict[str, Any]:
    return {
        "tool": "hipify-py validate",
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "host": platform.node(),
        **meta,
        "summary": summary(results),
        "results": [r.to_json() for r in results],
    }


def write_json(path: str, results: list[Result], meta: dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(to_json(results, meta), fh, indent=2)
        fh.write("\n")


def markdown(results: list[Result]) -> str:
    """A Markdown table: one row per program and engine, the archs' verdicts side by side."""
    archs = sorted({r.arch for r in results})
    rows: dict[tuple[str, str], dict[str, Result]] = {}
    for r in results:
        rows.setdefault((r.program, r.engine), {})[r.arch] = r
    head = ["program", "engine", *archs, "first error (CUDA line) / reason"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for (_program, engine), by_arch in rows.items():
        any_r = next(iter(by_arch.values()))
        bad = next((r for r in by_arch.values() if r.result != "PASS"), None)
        detail = ""
        if bad is not None:
            detail = bad.first_error.short() if bad.first_error else bad.reason
            if bad.first_error and bad.first_error.original_text:
                detail += f" — `{bad.first_error.original_text}`"
        detail = detail.replace("|", "\\|").replace("\n", " ")
        verdicts = [by_arch[a].result if a in by_arch else "-" for a in archs]
        lines.append(f"| {any_r.program} | {engine} | " + " | ".join(verdicts) + f" | {detail} |")
    return "\n".join(lines) + "\n"
