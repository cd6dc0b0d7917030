"""Where a whole-tree run spends its time, per phase and per process (a profile, not a test).

    python bench/profile_run.py TREE [hipify options...]     e.g.  TREE --engine regex -j 2 --no-cache

Runs the command line in this process (``--out-dir`` to a temporary directory unless the options name an
output) with timing wrappers around the run's phases, and prints, for the parent (the run) and for each worker
process, the seconds each phase took, inclusive (a phase's time contains the phases it calls) and the calls:

- parent: discover, scan (the project scan and model, waiting for its workers included), translate (waiting
  for results), write (the emitter), manifest, report (report file, findings and summary);
- workers: the scan and translation jobs, and inside them reading, lexing, the scan's facts, the text facts,
  planning, splicing, the result cache and writing the translation (where the worker writes it);
- and how busy the workers were from the first scan (translation) job to the last: below 100 %, they waited for
  the parent, for the last jobs or for the machine.

Wrappers replace module attributes, so a phase a branch does not have is left out; the same command measures
today's main (run it from a checkout of main with ``PYTHONPATH`` pointing there).
"""

from __future__ import annotations

import functools
import json
import os
import resource
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

_TIMES: dict[str, list[float]] = defaultdict(lambda: [0.0, 0, 0.0])  # wall seconds, calls, CPU seconds
_REPORT_DIR = Path(tempfile.mkdtemp(prefix="hipify-profile-"))
_PARENT = os.getpid()
_JOBS = ("worker: scan job", "worker: scan job (exact)", "worker: translate job")
os.register_at_fork(after_in_child=_TIMES.clear)  # a worker reports its own times only


# Each job phase's first start and last end in this process (``time.perf_counter``: one clock for every process),
# so that the report can say how busy the workers were between the first job of a kind and the last.
_SPANS: dict[str, list[float]] = {}
os.register_at_fork(after_in_child=_SPANS.clear)


def _flush() -> None:
    if os.getpid() != _PARENT:  # a worker ends with os._exit: it writes its times after each job
        (_REPORT_DIR / f"{os.getpid()}.json").write_text(json.dumps({"times": _TIMES, "spans": _SPANS}))


def _timed(module: Any, name: str, phase: str) -> None:
    fn = getattr(module, name, None)
    if fn is None:
        return

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            entry = _TIMES[phase]
            entry[0] += time.perf_counter() - start
            entry[1] += 1
            entry[2] += time.thread_time() - cpu
            if phase in _JOBS:
                span = _SPANS.setdefault(phase, [start, 0.0])
                span[1] = time.perf_counter()
                _flush()

    setattr(module, name, wrapper)


def _timed_iterator(module: Any, name: str, phase: str) -> None:
    """Time each step of the iterator a function returns (waiting for the workers' results)."""
    fn = getattr(module, name, None)
    if fn is None:
        return

    def stepping(it: Any) -> Any:
        while True:
            start, cpu = time.perf_counter(), time.thread_time()
            try:
                item = next(it)
            except StopIteration:
                return
            finally:
                _TIMES[phase][0] += time.perf_counter() - start
                _TIMES[phase][2] += time.thread_time() - cpu
            _TIMES[phase][1] += 1
            yield item

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return stepping(iter(fn(*args, **kwargs)))

    setattr(module, name, wrapper)


def _instrument() -> None:
    import importlib

    def mod(name: str) -> Any:
        try:
            return importlib.import_module(name)
        except ImportError:
            return None

    run, pipeline, api = mod("hipify.run.run"), mod("hipify.translation.pipeline"), mod("hipify.translation.api")
    placing = mod("hipify.run.placing")  # where workers write their translations (--out-dir, --in-place)
    plan: list[tuple[Any, str, str]] = [
        (run, "discover", "parent: discover"),
        (run, "_project_facts", "parent: scan (project model)"),
        (run, "_finish", "parent: report"),
        (run, "_conclude", "parent: report"),
        (mod("hipify.run.manifest").WarmStart, "save", "parent: manifest"),
        (mod("hipify.output.emit").Emitter, "emit", "parent: write"),
        (mod("hipify.output.emit").Emitter, "emit_placed", "parent: write"),
        (mod("hipify.output.emit"), "write_result", "parent: write: write_result"),
        (pipeline, "scan", "worker: scan job"),
        (pipeline, "scan_exact", "worker: scan job (exact)"),
        (pipeline, "process", "worker: translate job"),
        (placing, "translate_and_write", "worker: translate job"),
        (placing, "process", "worker: translate job: translate"),
        (placing, "write_file", "worker: translate job: write"),
        (pipeline, "read_source", "worker: read"),
        (mod("hipify.sources.kept"), "read_source", "worker: read"),
        (pipeline, "scan_text", "worker: scan: facts"),
        (pipeline, "translate", "worker: translate"),
        (mod("hipify.machinery.cache").ResultCache, "get", "worker: cache get"),
        (mod("hipify.machinery.cache").ResultCache, "put", "worker: cache put"),
        (mod("hipify.regex_mode.engine"), "text_facts", "worker: translate: text facts"),
        (mod("hipify.regex_mode.engine"), "plan", "worker: translate: plan"),
        (api, "apply", "worker: translate: splice"),
        (api, "run_engine", "worker: translate: engine"),
        (mod("hipify.clang_mode.engine"), "parse", "worker: translate: clang parse"),
    ]
    for module_name in (
        "hipify.project.scan",
        "hipify.lexing.text_facts",
        "hipify.rewrite.context",
        "hipify.clang_mode.engine",
        "hipify.lexing.shared",
    ):
        plan.append((mod(module_name), "lex", "worker: lex"))
    for module, name, phase in plan:
        if module is not None:
            _timed(module, name, phase)
    _timed_iterator(run, "_translate", "parent: translate (waiting for results)")


def _report(wall: float) -> None:
    workers: dict[str, dict[str, list[float]]] = {}
    spans: dict[str, list[list[float]]] = defaultdict(list)
    for path in sorted(_REPORT_DIR.glob("*.json")):
        written = json.loads(path.read_text())
        workers[path.stem] = written["times"]
        for phase, span in written["spans"].items():
            spans[phase].append(span)
    usage = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = sum(u.ru_utime + u.ru_stime for u in usage)
    print(f"wall: {wall:.2f} s, CPU (the run and its workers): {cpu:.2f} s, load average {os.getloadavg()[0]:.1f}")
    print(f"{'phase':58} {'wall s':>8} {'CPU s':>8} {'calls':>7}")
    for phase, (secs, calls, cpu_s) in sorted(_TIMES.items()):
        print(f"{phase:58} {secs:8.2f} {cpu_s:8.2f} {int(calls):7d}")
    total: dict[str, list[float]] = defaultdict(lambda: [0.0, 0, 0.0])
    for pid, times in workers.items():
        print(f"-- worker {pid}")
        for phase, (secs, calls, cpu_s) in sorted(times.items()):
            print(f"   {phase:55} {secs:8.2f} {cpu_s:8.2f} {int(calls):7d}")
            for i, value in enumerate((secs, calls, cpu_s)):
                total[phase][i] += value
    print("-- all workers")
    for phase, (secs, calls, cpu_s) in sorted(total.items()):
        print(f"   {phase:55} {secs:8.2f} {cpu_s:8.2f} {int(calls):7d}")
    # Idle workers mean the run waits on something else: the parent, the last job, the machine.
    print("-- how busy the workers were, from the first job of a kind to the last (every worker's time in jobs)")
    for phase in _JOBS:
        if phase in spans:
            window = max(end for _, end in spans[phase]) - min(start for start, _ in spans[phase])
            busy = total[phase][0] / (window * len(workers)) if window > 0 else 1.0
            print(f"   {phase:55} {window:8.2f} s, busy {busy:4.0%}")


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    _instrument()
    from hipify.cli.cli import main as cli_main

    args = list(argv)
    if not any(a in ("--out-dir", "--o-dir", "--in-place", "--check", "--diff", "--examine", "-o") for a in args):
        args = ["--out-dir", str(_REPORT_DIR / "out"), *args]
    start = time.perf_counter()
    code = cli_main(["-q", *args])
    wall = time.perf_counter() - start
    _report(wall)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
