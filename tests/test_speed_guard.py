"""The speed guard (bench/speed_guard.py): the default and regex engines on a subset of the real-code trees, timed
beside a reference task in this process; fails when a ratio is 20 % over the committed baseline or more files are
parsed with libclang. Slow (about 10 s of CPU); skipped where the real-code archives or libclang are absent."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hipify.translation.engines import clang_status

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from speed_guard import extract, load_baseline, measure, realcode_dir, regressions


@pytest.mark.slow
@pytest.mark.clang
def test_the_engines_are_no_slower_than_the_baseline(tmp_path: Path) -> None:
    realcode = realcode_dir()
    if realcode is None:
        pytest.skip("real-code archives not found beside the clone (../shared/realcode) or in $HIPIFY_PY_REALCODE")
    usable, why = clang_status()
    if not usable:
        pytest.skip(f"libclang unavailable: {why}")
    texts = extract(realcode, tmp_path)
    baseline = load_baseline()
    assert len(texts) == baseline["files"], "the subset changed: write the baseline again (bench/speed_guard.py)"
    found = regressions(measure(texts), baseline)
    if found and not any("parsed" in f for f in found):
        found = regressions(measure(texts), baseline)  # a ratio over: measured again, so one busy moment is no failure
    assert not found, "; ".join(found) + " (python bench/speed_guard.py --write-baseline after a wanted change)"
