from __future__ import annotations

import re
from pathlib import Path

from hipify.knowledge.codes import CODES, render_markdown

ROOT = Path(__file__).resolve().parents[1]


def test_diagnostics_doc_is_generated_from_codes() -> None:
    assert (ROOT / "docs" / "diagnostics.md").read_text() == render_markdown(), (
        "regenerate: python -m hipify.knowledge.codes > docs/diagnostics.md"
    )


def test_every_code_used_in_the_package_is_documented() -> None:
    used: set[str] = set()
    for path in (ROOT / "hipify").rglob("*.py"):
        used |= set(re.findall(r'"(HPY\d{3})"', path.read_text()))
    assert used, "no codes found: the scan is broken"
    assert sorted(used - set(CODES)) == []
