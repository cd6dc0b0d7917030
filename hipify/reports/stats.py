"""--print-stats / --examine: conversion counts as rich tables (stderr; stdout for --examine)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from .report import Report


def print_stats(report: Report, console: Console | None = None, to_stdout: bool = False) -> None:
    """On stderr (stdout may carry the translation), or on stdout for --examine, whose output they are."""
    console = console or Console(stderr=not to_stdout, highlight=False)
    summary = Table(title="hipify-py statistics", show_header=False)
    summary.add_row("files", str(report.files))
    summary.add_row("changed", str(report.changed))
    summary.add_row("errors", str(report.errors))
    summary.add_row("CONVERTED refs", str(sum(report.converted.values())))
    summary.add_row("UNCONVERTED refs", str(report.unconverted_total))
    if report.cached:
        summary.add_row("from cache", str(report.cached))
    console.print(summary)
    for title, counts in (("CONVERTED", report.converted), ("UNCONVERTED", report.unconverted)):
        if not counts:
            continue
        table = Table(title=f"{title} refs by name")
        table.add_column("name")
        table.add_column("count", justify="right")
        for name, count in counts.most_common():
            table.add_row(name, str(count))
        console.print(table)
