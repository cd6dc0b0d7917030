"""Repository workflow: translating only what git says changed, a mirror kept up to date, -j's
default, and API family aliases wherever a family is named."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hipify.cli.cli import available_cores, main

GIT = shutil.which("git")


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("GIT_AUTHOR_NAME", "t")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "t@example.invalid")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "t")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "t@example.invalid")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    if GIT is None:
        pytest.skip("git is not installed")
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.cu").write_text('#include "common.cuh"\nvoid a() { cudaFree(0); }\n')
    (root / "src" / "b.cu").write_text("void b() { cudaDeviceSynchronize(); }\n")
    (root / "src" / "c.cu").write_text("void c() { cudaDeviceReset(); }\n")
    (root / "src" / "common.cuh").write_text("#pragma once\ninline void s() { cudaStreamSynchronize(0); }\n")
    (root / "README").write_text("data\n")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "base")
    return root


def test_changed_since_translates_changed_files_and_their_includers(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "src" / "common.cuh").write_text("#pragma once\ninline void s() { cudaStreamQuery(0); }\n")
    (repo / "src" / "new.cu").write_text("void n() { cudaMalloc(0, 1); }\n")  # untracked counts as changed
    assert main(["--engine", "regex", "--check", "--changed-since", "HEAD", str(repo / "src")]) == 1
    err = capsys.readouterr().err
    assert "hipify-py: 3 files scanned" in err  # common.cuh, a.cu (includes it), new.cu; not b.cu, c.cu
    names = err.split("would translate 3 files: ")[1].splitlines()[0]
    assert sorted(Path(n).name for n in names.split(", ")) == ["a.cu", "common.cuh", "new.cu"]


def test_staged_translates_only_staged_files(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "src" / "b.cu").write_text("void b() { cudaDeviceSynchronize(); cudaFree(0); }\n")
    (repo / "src" / "c.cu").write_text("void c() { cudaDeviceReset(); cudaFree(0); }\n")
    _git(repo, "add", "src/b.cu")
    assert main(["--engine", "regex", "--in-place", "--no-backup", "--staged", str(repo)]) == 0
    assert "hipFree" in (repo / "src" / "b.cu").read_text()
    assert "cudaFree" in (repo / "src" / "c.cu").read_text()  # changed, but not staged
    assert "hipify-py: 1 file scanned, 1 translated in place" in capsys.readouterr().err


def test_changed_since_an_unknown_revision_is_a_usage_error(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--check", "--changed-since", "no-such-rev", str(repo)]) == 2
    assert "hipify-py: error: " in capsys.readouterr().err
    assert main(["--check", "--changed-since", "HEAD", "--staged", str(repo)]) == 2


def test_a_refused_selection_writes_nothing_into_the_mirror(repo: Path, tmp_path: Path) -> None:
    """The mirror's other files are copied while the run translates, but only once git has said what to select."""
    mirror = tmp_path / "mirror"
    assert main(["--engine", "regex", "--out-dir", str(mirror), "--changed-since", "no-such-rev", str(repo)]) == 2
    assert not mirror.exists()


def test_mirror_is_kept_up_to_date(repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mirror = tmp_path / "mirror"
    assert main(["--engine", "regex", "--out-dir", str(mirror), str(repo)]) == 0
    assert (mirror / "README").exists() and "hipFree" in (mirror / "src" / "a.cu").read_text()
    assert "1 other file mirrored" in capsys.readouterr().err
    stamp = (mirror / "README").stat().st_mtime_ns
    (repo / "src" / "c.cu").write_text("void c() { cudaDeviceReset(); cudaFree(0); }\n")
    assert main(["--engine", "regex", "--out-dir", str(mirror), "--changed-since", "HEAD", str(repo)]) == 0
    assert "hipFree(0)" in (mirror / "src" / "c.cu").read_text()
    assert (mirror / "README").stat().st_mtime_ns == stamp  # unchanged: not copied again
    assert "hipify-py: 1 file scanned, 1 translated into" in capsys.readouterr().err


def test_jobs_default_to_the_available_cores(tmp_path: Path) -> None:
    expected = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert available_cores() == expected
    from hipify.cli.cli import build_parser, config_from_args

    args = build_parser().parse_args([str(tmp_path)])
    assert config_from_args(args).jobs == expected
    args = build_parser().parse_args(["-j", "1", str(tmp_path)])
    assert config_from_args(args).jobs == 1


@pytest.mark.parametrize(
    ("alias", "family"), [("cublas", "blas"), ("cuDNN", "dnn"), ("cufft", "fft"), ("nvrtc", "rtc")]
)
def test_family_aliases(alias: str, family: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tables", "--api", alias, "--format", "csv"]) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    assert rows and all(f",{family}," in row for row in rows[:50])
    assert main(["explain", alias]) == 0
    assert capsys.readouterr().out.startswith(f"{family} API family")


def test_unknown_family_names_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tables", "--api", "cublass"]) == 2
    err = capsys.readouterr().err
    assert "unknown API family 'cublass'" in err and "did you mean cublas" in err and "dnn (cudnn)" in err
