"""The HTML porting report, rendered by a real headless Chromium: its sections, charts, per-file
source lines and the sorting/filtering script, checked in the DOM Chromium built. A screenshot
is kept as a test artifact (build/test-artifacts/, or $HIPIFY_PY_TEST_ARTIFACTS)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from hipify.cli.cli import main

ROOT = Path(__file__).resolve().parents[1]

# A small project of our own: translated code, an API HIP lacks, cuDNN (needs --miopen), a
# deprecated API (review), a name the table does not know, a binary file (environment).
FILES = {
    "app/main.cu": """#include <cuda_runtime.h>
#include "util.cuh"

__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }

int main() {
    float *d = nullptr;
    cudaMalloc(&d, 256);
    scale<<<1, 64>>>(d);
    cudaArrayGetPlane(nullptr, nullptr, 0);
    cudaNotARealApi(d); /* <script>alert(1)</script> */
    cudaDeviceSynchronize();
    cudaFree(d);
    return 0;
}
""",
    "app/util.cuh": """#pragma once
#include <cstdio>
inline void check(cudaError_t e) { if (e != cudaSuccess) std::puts(cudaGetErrorString(e)); }
""",
    "app/texture.cu": """void bind(const void *p, size_t n) {
    cudaBindTexture(nullptr, nullptr, p, n);
    cudaArrayGetPlane(nullptr, nullptr, 1);
    cudaMemset(nullptr, 0, n);
}
""",
    "nn/conv.cu": """#include <cudnn.h>
void make() { cudnnHandle_t h; cudnnCreate(&h); cudnnDestroy(h); }
""",
}


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("Chromium is not installed (.ci/run installs Debian's chromium package)")


def _browser(browser: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
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
            f"--user-data-dir={profile}",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


class _Text(HTMLParser):
    """The text of the elements with an id, and each table's rows (cells' text, row style)."""

    def __init__(self) -> None:
        super().__init__()
        self.by_id: dict[str, list[str]] = {}
        self.open_ids: list[tuple[str, int]] = []
        self.depth = 0
        self.tables: dict[str, list[tuple[list[str], str]]] = {}
        self.table: str = ""
        self.row: list[str] | None = None
        self.row_style = ""
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag in ("br", "input", "meta", "img", "rect"):
            return
        self.depth += 1
        if a.get("id"):
            self.open_ids.append((str(a["id"]), self.depth))
            self.by_id.setdefault(str(a["id"]), [])
        if tag == "table" and a.get("id"):
            self.table = str(a["id"])
            self.tables[self.table] = []
        elif tag == "tr" and self.table:
            self.row, self.row_style = [], str(a.get("style") or "")
        elif tag == "td" and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("br", "input", "meta", "img", "rect"):
            return
        if tag == "td" and self.row is not None and self.cell is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            if self.row:
                self.tables[self.table].append((self.row, self.row_style))
            self.row = None
        elif tag == "table":
            self.table = ""
        while self.open_ids and self.open_ids[-1][1] >= self.depth:
            self.open_ids.pop()
        self.depth -= 1

    def handle_data(self, data: str) -> None:
        for ident, _ in self.open_ids:
            self.by_id[ident].append(data)
        if self.cell is not None:
            self.cell.append(data)

    def text(self, ident: str) -> str:
        return " ".join(" ".join(self.by_id.get(ident, [])).split())


def _parse(dom: str) -> _Text:
    parser = _Text()
    parser.feed(dom)
    return parser


@pytest.fixture()
def report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "project"
    for name, text in FILES.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    (src / "app" / "blob.h").write_bytes(b"\0\1\2cuda")
    out = tmp_path / "report.html"
    monkeypatch.chdir(tmp_path)
    assert main(["--engine", "regex", "--examine", "-q", "--report", str(out), "project"]) == 0
    return out


def test_html_report_sections_in_chromium(report: Path, tmp_path: Path) -> None:
    browser = _chromium()
    proc = _browser(browser, tmp_path / "profile", "--dump-dom", report.as_uri())
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    page = _parse(dom)
    # Summary cards
    assert page.text("card-files") == "5 files scanned"
    assert page.text("card-hand") == "2 APIs needing hand work"  # cudaArrayGetPlane, cudaNotARealApi
    assert page.text("card-flag") == "4 APIs needing a flag"  # cudnn.h, cudnnHandle_t, cudnnCreate, cudnnDestroy
    assert page.text("card-environment") == "1 environment findings"  # the binary file
    assert page.text("minimum-rocm") == "5.2"
    # Charts: inline SVG, one bar per kind of work, top files and APIs
    assert page.text("chart-work").startswith("References by kind of work")
    assert dom.count('<g class="bar">') >= 5 + 3
    assert "Needs hand work" in page.text("chart-work") and "cudaMalloc" in page.text("chart-apis")
    assert "app/main.cu" in page.text("chart-files")
    # Work by kind: the hint per API, the flag, the review, the environment finding
    hand = {row[0]: row for row, _ in page.tables["work-hand"]}
    assert "cudaArrayGetPlane" in hand and hand["cudaArrayGetPlane"][1] == "2"
    assert "rewrite it" in hand["cudaArrayGetPlane"][2] or "HIP offers" in hand["cudaArrayGetPlane"][2]
    assert "project-names" in hand["cudaNotARealApi"][2]
    flags = {row[0]: row[1] for row, _ in page.tables["work-flag"]}
    assert flags["cudnnCreate"] == "--miopen"
    assert "cudaBindTexture" in page.text("work-review") and "deprecated" in page.text("section-review")
    assert "binary" in page.text("work-environment")
    # Files table with effort per file and the rule shown
    files = {row[0]: row for row, _ in page.tables["files"]}
    assert files["project/app/main.cu"][1] == "medium" and files["project/app/util.cuh"][1] == "none"
    assert files["project/nn/conv.cu"][1] == "low"
    assert "Effort rule" in page.text("section-files") and "4 or more distinct APIs" in page.text("section-files")
    # Per-file sections carry each finding's source line; code links resolve to the glossary
    main_cu = page.text("file-project-app-main-cu")
    assert "cudaArrayGetPlane(nullptr, nullptr, 0);" in main_cu
    assert "<script>alert" not in dom and "&lt;script&gt;alert(1)&lt;/script&gt;" in dom
    # the statement needing cudaArrayGetPlane is left out (HPY010): the glossary says what that means
    assert 'href="#code-HPY010"' in dom and page.text("code-HPY010").startswith("HPY010 disable-unavailable")
    assert "docs/diagnostics.md" in page.text("section-codes")


def test_html_report_sorts_and_filters_in_chromium(report: Path, tmp_path: Path) -> None:
    browser = _chromium()
    view = report.as_uri() + "#filter:files=conv&sort:work-translated=1d"
    proc = _browser(browser, tmp_path / "profile", "--dump-dom", view)
    assert proc.returncode == 0, proc.stderr[-2000:]
    page = _parse(proc.stdout)
    visible = [row[0] for row, style in page.tables["files"] if "none" not in style]
    assert visible == ["project/nn/conv.cu"]
    counts = [int(row[1]) for row, _ in page.tables["work-translated"]]
    assert counts == sorted(counts, reverse=True) and len(counts) > 3
    assert re.search(r'<th class="num sorted-desc">references</th>', proc.stdout)


def test_html_report_screenshot(report: Path, tmp_path: Path) -> None:
    browser = _chromium()
    shot = tmp_path / "report.png"
    proc = _browser(browser, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1400,2000", report.as_uri())
    assert shot.exists() and shot.stat().st_size > 20_000, proc.stderr[-2000:]
    artifacts = Path(os.environ.get("HIPIFY_PY_TEST_ARTIFACTS", ROOT / "build" / "test-artifacts"))
    try:
        artifacts.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, artifacts / "report-html.png")
        shutil.copyfile(report, artifacts / "report.html")
    except OSError:
        pass  # a read-only checkout: the screenshot was still taken and checked
