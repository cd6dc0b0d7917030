"""The options that say how many findings a command prints, shared by the translator's and the shim's commands."""

from __future__ import annotations

import argparse

from ..reports.findings import DEFAULT_MAX_FINDINGS


def add_findings_options(group: argparse.ArgumentParser | argparse._ArgumentGroup, grouping: str) -> None:
    """-q, -v and --max-findings: how many findings a command prints (``grouping``: how they are counted)."""
    group.add_argument("-q", "--quiet", action="store_true", help="only errors on stderr (no warnings, no summary)")
    group.add_argument(
        "-v", "--verbose", action="store_true", help="every finding: notes too, and no --max-findings cap"
    )
    group.add_argument(
        "--max-findings",
        type=int,
        default=DEFAULT_MAX_FINDINGS,
        metavar="N",
        help=f"findings printed at most, {grouping} (default {DEFAULT_MAX_FINDINGS}; 0 = all); the report has them all",
    )
