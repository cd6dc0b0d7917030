"""The code is kept lint-clean, formatted and type-checked (the configuration is in pyproject.toml).

These run the real tools on the repository, so CI (which runs only the test command) checks
them too.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("args", [("ruff", "check", "."), ("ruff", "format", "--check", ".")], ids=["check", "format"])
def test_ruff(args: tuple[str, ...]) -> None:
    result = _run(*args)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
