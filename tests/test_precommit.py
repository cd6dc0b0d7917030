"""The shipped pre-commit hooks, driven by the real pre-commit against this repository's HEAD."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _head() -> str:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: pre-commit installs hooks from a git revision")
    proc = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip("repository has no commit yet")
    return proc.stdout.strip()


Run = Callable[..., "subprocess.CompletedProcess[str]"]


def _user_repo(tmp_path: Path) -> tuple[Path, Run]:
    pytest.importorskip("pre_commit", reason="pre-commit is a test dependency (pip install -e '.[test]')")
    repo = tmp_path / "user-repo"
    repo.mkdir()
    env = dict(
        os.environ,
        PRE_COMMIT_HOME=str(tmp_path / "pc-home"),
        HIPIFY_PY_CACHE_DIR=str(tmp_path / "cache"),
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.invalid",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.invalid",
    )

    def run(*cmd: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, timeout=900)

    run("git", "init", "-q")
    return repo, run


def test_hooks_check_then_translate(tmp_path: Path) -> None:
    rev = _head()
    repo, run = _user_repo(tmp_path)
    (repo / "k.cu").write_text("__global__ void k() {}\nint main() { cudaDeviceSynchronize(); }\n")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {ROOT}\n  rev: {rev}\n  hooks:\n  - id: hipify-py-check\n"
    )
    run("git", "add", "-A")
    check = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert check.returncode == 1, check.stdout + check.stderr
    assert "would translate 1 file: k.cu" in check.stdout
    assert "fix: hipify-py --in-place --engine regex k.cu" in check.stdout

    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {ROOT}\n  rev: {rev}\n  hooks:\n  - id: hipify-py\n"
    )
    run("git", "add", "-A")
    fix = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert fix.returncode == 1, fix.stdout + fix.stderr  # pre-commit fails a run that modified files
    assert "hipDeviceSynchronize" in (repo / "k.cu").read_text()
    assert not (repo / "k.cu.prehip").exists()
    run("git", "add", "-A")
    again = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert again.returncode == 0, again.stdout + again.stderr


def test_mirror_hook_keeps_an_out_of_tree_hip_copy_up_to_date(tmp_path: Path) -> None:
    rev = _head()
    repo, run = _user_repo(tmp_path)
    mirror = tmp_path / "user-repo-hip"
    (repo / "src").mkdir()
    (repo / "src" / "k.cu").write_text('#include "util.cuh"\n__global__ void k() {}\nint main() { cudaFree(0); }\n')
    (repo / "src" / "util.cuh").write_text("#pragma once\ninline void sync() { cudaDeviceSynchronize(); }\n")
    (repo / "Makefile").write_text("all:\n\thipcc -c src/k.cu\n")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {ROOT}\n  rev: {rev}\n  hooks:\n  - id: hipify-py-mirror\n"
        f"    args: [--out-dir, ../{mirror.name}, .]\n"
    )
    run("git", "add", "-A")
    first = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "hipFree(0)" in (mirror / "src" / "k.cu").read_text()
    assert "hipDeviceSynchronize" in (mirror / "src" / "util.cuh").read_text()
    assert (mirror / "Makefile").read_text() == (repo / "Makefile").read_text()  # the mirror builds as it is
    assert "cudaFree" in (repo / "src" / "k.cu").read_text()  # the repository is never modified
    commit = run("git", "commit", "-qm", "first")
    assert commit.returncode == 0, commit.stdout + commit.stderr

    run(sys.executable, "-m", "pre_commit", "install")
    (repo / "src" / "util.cuh").write_text("#pragma once\ninline void sync() { cudaStreamSynchronize(0); }\n")
    (repo / "src" / "new.cu").write_text("void f() { cudaMalloc(0, 4); }\n")
    run("git", "add", "-A")
    second = run("git", "commit", "-qm", "second")  # the installed hook runs on commit
    assert second.returncode == 0, second.stdout + second.stderr
    assert "hipStreamSynchronize(0)" in (mirror / "src" / "util.cuh").read_text()
    assert "hipMalloc(0, 4)" in (mirror / "src" / "new.cu").read_text()
