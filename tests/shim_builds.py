"""What the shim's hipcc tests share: a work folder per ROCm release (>= 6.2) that hipcc can read, the generated
include folder written into it, and hipcc's first errors for one command."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from hipify.validate.toolchain import Toolchain, detect


def release_workdirs(tmp_path: Path, request: pytest.FixtureRequest, name: str) -> list[tuple[Toolchain, Path]]:
    """(toolchain, an empty folder inside its chroot) per release found; skips the test where none is."""
    toolchains = [tc for tc in detect(None, None, "all") if tc.rocm_version >= (6, 2)]
    if not toolchains:
        pytest.skip("no ROCm >= 6.2 hipcc (run .ci/install_hip.sh to build the ROCm chroots)")
    found: list[tuple[Toolchain, Path]] = []
    for tc in toolchains:
        base = Path(tc.chroot) / "tmp" if tc.chroot else tmp_path
        work = base / f"hipify-{name}-{os.getpid()}-{tc.rocm_version[0]}{tc.rocm_version[1]}"
        request.addfinalizer(lambda work=work: shutil.rmtree(work, ignore_errors=True))
        work.mkdir(parents=True, exist_ok=True)
        found.append((tc, work))
    return found


def write_files(folder: Path, files: Mapping[str, str]) -> None:
    for relative, text in files.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(text)


def hipcc_errors(tc: Toolchain, args: Sequence[str]) -> str:
    """hipcc for gfx90a in C++17 HIP mode with ``args``: "" when it succeeds, else its first three error lines."""
    cmd = [*tc.hipcc, "--offload-arch=gfx90a", "-std=c++17", "-x", "hip", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **tc.env}, timeout=900)
    if proc.returncode == 0:
        return ""
    errors = [line for line in proc.stderr.splitlines() if "error" in line][:3]
    return " | ".join(errors) or f"exit {proc.returncode}"
