"""The shipped pre-commit hooks, driven by the real pre-commit against this repository's HEAD."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
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


def test_hooks_check_then_translate(tmp_path: Path) -> None:
    pytest.importorskip("pre_commit", reason="pre-commit is a test dependency (pip install -e '.[test]')")
    rev = _head()
    repo = tmp_path / "user-repo"
    repo.mkdir()
    env = dict(
        os.environ,
        PRE_COMMIT_HOME=str(tmp_path / "pc-home"),
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.invalid",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.invalid",
    )

    def run(*cmd: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, timeout=900)

    run("git", "init", "-q")
    (repo / "k.cu").write_text("__global__ void k() {}\nint main() { cudaDeviceSynchronize(); }\n")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {ROOT}\n  rev: {rev}\n  hooks:\n  - id: hipify-py-check\n"
    )
    run("git", "add", "-A")
    check = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert check.returncode == 1, check.stdout + check.stderr
    assert "would translate k.cu" in check.stdout

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
