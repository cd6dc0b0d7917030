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

from .runner import Result

STYLE = {"PASS": "green", "MATCH": "green", "FAIL": "red", "MISMATCH": "red", "ERROR": "red", "SKIPPED": "yellow"}


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
