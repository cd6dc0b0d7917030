"""The HTML porting report, rendered by a real headless Chromium."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from hipify.cli import main


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("Chromium is not installed (.ci/run installs Debian's chromium package)")


def test_html_report_renders_in_chromium(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    browser = _chromium()
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.cu").write_text("void f() { cudaDeviceSynchronize(); cudaNotARealApi(); }\n")
    (src / "b.cu").write_text("void g() { cudaFree(0); /* <script>alert(1)</script> */ }\n")
    report = tmp_path / "report.html"
    assert main(["--engine", "regex", "--examine", "--report", str(report), str(src)]) == 0
    proc = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--dump-dom",
            report.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    assert re.search(r'<td id="converted">2</td>', dom), dom[:2000]
    assert re.search(r'<td id="unconverted">1</td>', dom)
    assert "cudaNotARealApi" in dom and "<script>alert" not in dom
    shot = tmp_path / "report.png"
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            f"--user-data-dir={tmp_path / 'profile2'}",
            f"--screenshot={shot}",
            "--window-size=1000,700",
            report.as_uri(),
        ],
        capture_output=True,
        timeout=120,
    )
    assert shot.exists() and shot.stat().st_size > 1000
