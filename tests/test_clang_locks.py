"""The clang engine's generated files and precompiled headers are built by one process at a time
(``environment.exclusive``): while one holds the lock, another cannot take it, and takes it once it is let go."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hipify.clang_mode.environment import exclusive

fcntl = pytest.importorskip("fcntl", reason="file locks need fcntl (POSIX)")

PROBE = """
import fcntl, sys
with open(sys.argv[1], "a") as handle:
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print("held")
    else:
        print("free")
"""


def _other_process_sees(lock: Path) -> str:
    return subprocess.run([sys.executable, "-c", PROBE, str(lock)], capture_output=True, text=True, check=True).stdout


def test_another_process_waits_while_the_lock_is_held(tmp_path: Path) -> None:
    lock = tmp_path / "sub" / ".prelude.lock"
    with exclusive(lock):
        assert lock.is_file()  # created, with its folder
        assert _other_process_sees(lock).strip() == "held"
    assert _other_process_sees(lock).strip() == "free"


def test_an_unusable_lock_path_still_runs_the_block(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    ran = []
    with exclusive(blocker / "cannot" / ".lock"):  # a folder under a file: no lock to be had
        ran.append(True)
    assert ran == [True]
