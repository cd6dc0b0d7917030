"""ggml's kernels on the CPU: its CUDA backend translated as ``validate --run-on cpu`` translates it, then drivers of
our own (bench/cpu_kernels/ggml_*.cpp) include a translated kernel source, launch its kernels on small inputs
through HIP-CPU and compare with host values (skipped, with the reason, without the real-code archive, HIP-CPU or
TBB). bench/cpu_kernels.py measures every source; docs/realcode.md has the numbers."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from test_cpu_run import hip_cpu

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from cpu_kernels import PROJECTS, STAND_INS, drive, program_of, unpack

from hipify.validate.cpu_run import translate_for_cpu

REPO = Path(__file__).resolve().parents[1]
REALCODE = Path(os.environ.get("HIPIFY_PY_REALCODE", REPO.parent / "shared" / "realcode"))


def test_each_driver_names_a_project_and_prints_a_verdict() -> None:
    drivers = sorted(STAND_INS.parent.glob("*_*.cpp"))
    assert drivers
    for driver in drivers:
        assert driver.stem.split("_", 1)[0] in PROJECTS
        assert '"PASS"' in driver.read_text(encoding="utf-8")


def test_ggml_kernels_run_translated_on_hip_cpu(tmp_path: Path) -> None:
    archive = REALCODE / PROJECTS["ggml"].archive
    if not archive.is_file():
        pytest.skip(f"no real-code archive at {archive} (set HIPIFY_PY_REALCODE to the folder of the archives)")
    hc = hip_cpu()
    project = PROJECTS["ggml"]
    root = unpack(archive, tmp_path / "src") / project.top
    program = program_of("ggml", project, root)
    tr = translate_for_cpu(program, "regex", tmp_path)
    assert not tr.error, tr.error
    drivers = sorted(STAND_INS.parent.glob("ggml_*.cpp"))
    verdicts = {d.name: drive(tr.tree, program, d, hc, tmp_path, 300) for d in drivers}
    failed = {name: output for name, (verdict, output) in verdicts.items() if verdict != "PASS"}
    assert not failed, failed
