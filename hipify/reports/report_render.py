"""The porting report in the format asked for: the text formats of ``report`` and the HTML page of
``report_html`` (which reads the report's values, so it sits beside ``report``, not under it)."""

from __future__ import annotations

from .report import Report, render_text
from .report_html import render_html

FORMATS = ("json", "csv", "md", "html", "sarif")


def render(report: Report, fmt: str) -> str:
    if fmt == "html":
        return render_html(report)
    return render_text(report, fmt)
