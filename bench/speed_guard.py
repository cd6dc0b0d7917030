"""The speed guard: the default and regex engines on real code, beside a reference task, in one process.

    python bench/speed_guard.py [--realcode ../shared/realcode] [--write-baseline]

A timed test is no benchmark on a shared machine, so nothing here is compared with seconds: each round times,
one after the other on the same texts, a reference task (identifier counting, sorting and zlib over the texts:
work no change of ours speeds up or slows down), the regex engine and the default engine, in CPU seconds of this
process (the other tenants' load does not count). Three rounds; the medians of the ratios engine / reference are
compared with ``speed_baseline.json``, committed beside this file. ``tests/test_speed_guard.py`` (marked slow) fails
when either is 20 % over its baseline, or when the default engine parses more files than the baseline says.

The trees: a subset of the real-code archives, small enough for CI (HeCBench's CUDA programs whose names start
with ``a``, and its ``src/include``; the Library Samples' cuBLASLt and cuTENSOR folders); together they hold files
parsed for two of the reasons ``clang_mode.need`` names. The default engine parses against the generated prelude
(``--cuda-path none``), so the measurement does not depend on a CUDA toolkit being installed. A first round,
untimed, writes the prelude and the precompiled headers: what is measured is the steady state, each parse's cost
times the files parsed. The one-time cold costs are bench/run.py's (``docs/benchmarks.md``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tarfile
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE = Path(__file__).resolve().parent / "speed_baseline.json"
TOLERANCE = 1.2  # a ratio 20 % over its baseline fails
ROUNDS = 3
REFERENCE_REPEATS = 10  # the reference task is repeated to take about as long as the regex engine
# (archive, member prefixes): the subset of each real-code tree the guard translates.
SUBSET = (
    ("hecbench-dev.tar.xz", re.compile(r"hecbench-dev/src/(a[^/]*-cuda|include)/")),
    ("cuda-library-samples.tar.xz", re.compile(r"cuda-library-samples/(cuBLASLt|cuTENSOR)/")),
)
_IDENT = re.compile(r"[A-Za-z_]\w*")


def realcode_dir(given: Path | None = None) -> Path | None:
    """Where the real-code archives are: ``given``, $HIPIFY_PY_REALCODE, or ``../shared/realcode`` beside the clone."""
    for candidate in (given, os.environ.get("HIPIFY_PY_REALCODE"), ROOT.parent / "shared" / "realcode"):
        if candidate and all((Path(candidate) / archive).is_file() for archive, _ in SUBSET):
            return Path(candidate)
    return None


def extract(realcode: Path, dest: Path) -> dict[str, str]:
    """The subset's source files (path on disk -> text), extracted under ``dest``."""
    from hipify.sources.discover import DEFAULT_EXTENSIONS

    for archive, wanted in SUBSET:
        with tarfile.open(realcode / archive) as tar:
            members = [m for m in tar.getmembers() if wanted.match(m.name)]
            tar.extractall(dest, members=members, filter="data")
    files = sorted(p for p in dest.rglob("*") if p.is_file() and p.suffix in DEFAULT_EXTENSIONS)
    return {str(p): p.read_text(encoding="utf-8", errors="surrogateescape") for p in files}


def reference(texts: dict[str, str]) -> object:
    """Work of the same kinds as a translation's (regular expressions, Python objects, C loops), none of it ours."""
    words: Counter[str] = Counter()
    packed = 0
    for _ in range(REFERENCE_REPEATS):
        for text in texts.values():
            words.update(_IDENT.findall(text))
            packed += len(zlib.compress(text.encode("utf-8", "surrogateescape"), 6))
    return sorted(words.items(), key=lambda kv: (-kv[1], kv[0]))[:100], packed


@dataclass
class Measurement:
    files: int
    parsed: dict[str, int]  # files parsed per reason kind (clang_mode.need.REASONS)
    regex_per_reference: float
    default_per_reference: float
    rounds: list[dict[str, float]]

    @property
    def default_per_regex(self) -> float:
        return self.default_per_reference / self.regex_per_reference


def _cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def measure(texts: dict[str, str], rounds: int = ROUNDS) -> Measurement:
    from hipify import Options, translate_files
    from hipify.clang_mode import engine
    from hipify.clang_mode.need import reason_kind
    from hipify.model import SourceFile

    regex = Options(engine="regex", use_cache=False)
    default = Options(use_cache=False, cuda_path="none")
    reasons: dict[str, str] = {}
    real = engine.parse_reason

    def recording(source: SourceFile, *args: Any) -> str:
        reason = real(source, *args)
        if reason:
            reasons[source.path] = reason_kind(reason) or reason
        return reason

    engine.parse_reason = recording  # type: ignore[assignment]
    try:
        translate_files(texts, default)  # untimed: the prelude and the precompiled headers are written
    finally:
        engine.parse_reason = real
    timings = []
    for _ in range(rounds):
        ref = _cpu(lambda: reference(texts))
        rx = _cpu(lambda: translate_files(texts, regex))
        df = _cpu(lambda: translate_files(texts, default))
        timings.append({"reference": ref, "regex": rx, "default": df})
    return Measurement(
        files=len(texts),
        parsed=dict(sorted(Counter(reasons.values()).items())),
        regex_per_reference=statistics.median(t["regex"] / t["reference"] for t in timings),
        default_per_reference=statistics.median(t["default"] / t["reference"] for t in timings),
        rounds=timings,
    )


def load_baseline() -> dict[str, object]:
    return dict(json.loads(BASELINE.read_text()))


def regressions(measured: Measurement, baseline: dict[str, object]) -> list[str]:
    """What is worse than the baseline allows (empty: the guard passes)."""
    found = []
    for key in ("regex_per_reference", "default_per_reference"):
        allowed = float(baseline[key]) * TOLERANCE  # type: ignore[arg-type]
        value = getattr(measured, key)
        if value > allowed:
            found.append(f"{key} {value:.2f} > {allowed:.2f} (baseline {baseline[key]} + 20 %)")
    parsed = baseline["parsed"]
    assert isinstance(parsed, dict)
    if sum(measured.parsed.values()) > sum(parsed.values()):
        found.append(f"files parsed with libclang {measured.parsed} > baseline {parsed}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--realcode", type=Path, help="folder of the real-code archives (default ../shared/realcode)")
    parser.add_argument("--write-baseline", action="store_true", help=f"write the measurement to {BASELINE.name}")
    args = parser.parse_args()
    realcode = realcode_dir(args.realcode)
    if realcode is None:
        sys.exit("real-code archives not found: give --realcode or set HIPIFY_PY_REALCODE")
    with tempfile.TemporaryDirectory(prefix="hipify-speed-guard-") as work:
        measured = measure(extract(realcode, Path(work)))
    print(f"{measured.files} files; parsed per reason: {measured.parsed}")
    for r in measured.rounds:
        print("  round: " + ", ".join(f"{k} {v:.2f} s" for k, v in r.items()))
    print(
        f"median regex/reference {measured.regex_per_reference:.2f}, default/reference "
        f"{measured.default_per_reference:.2f}, default/regex {measured.default_per_regex:.2f}"
    )
    if args.write_baseline:
        record = {
            "subset": [f"{archive}: {wanted.pattern}" for archive, wanted in SUBSET],
            "files": measured.files,
            "parsed": measured.parsed,
            "regex_per_reference": round(measured.regex_per_reference, 2),
            "default_per_reference": round(measured.default_per_reference, 2),
            "default_per_regex": round(measured.default_per_regex, 2),
        }
        BASELINE.write_text(json.dumps(record, indent=2) + "\n")
        print(f"wrote {BASELINE}")
    elif BASELINE.is_file():
        found = regressions(measured, load_baseline())
        print("\n".join(found) if found else "within the baseline")
        sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
