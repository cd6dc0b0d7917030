"""``--run`` where no GPU is: run each translation on the CPU through HIP-CPU.

Each program is translated with ``hipLaunchKernelGGL`` launches (HIP-CPU has no triple chevrons), its
compatibility header gains the CPU branch its files need (:mod:`hipify.compat.cpu`), and it is built with g++ or
clang++ against HIP-CPU and TBB, then run: with its project's own run line where its Makefile has a ``run``
target (its sizes scaled down only with ``--run-scale``), else with no arguments, under a limit of the CPU seconds
it uses (:mod:`.cpu_limits`). Verdicts: PASS, FAIL (the reason), TIMEOUT (used its CPU time: the CPU stand-in is
slow, so this is no verdict on the port), NOT RUN (what HIP-CPU cannot give, named).
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..compat import HEADER_NAME, load_catalog
from ..compat.cpu import with_cpu_branch
from ..lexing.lexer import lex
from ..options import Options
from .corpus import SOURCE_SUFFIXES, Program
from .cpu_limits import Limits, run_limited
from .cpu_needs import needs_before_build, needs_from_build_log
from .cpu_respell import respell_dynamic_shared
from .hipcpu import HipCpu
from .run import FAIL, RunResult
from .runline import RunLine, run_line, scaled
from .runner import _TRANSLATE_LOCK, Translated, translate_program
from .verdict import judge

PASS, NOT_RUN, TIMEOUT = "PASS", "NOT RUN", "TIMEOUT"
RUNTIME = "cpu (HIP-CPU)"
_C_SUFFIXES = (".c",)
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def translate_for_cpu(program: Program, engine: str, work: Path, options: Options | None = None) -> Translated:
    """``program`` translated with hipLaunchKernelGGL launches, its compatibility header with the CPU branch."""
    opts = replace(options or Options(), hip_kernel_syntax=True)
    with _TRANSLATE_LOCK:
        tr = translate_program(program, engine, str(work), opts)
    if tr.error:
        return tr
    header_path = tr.tree / HEADER_NAME
    header = header_path.read_text(encoding="utf-8") if header_path.is_file() else None
    texts = []
    for rel in program.files:
        path = tr.tree / rel
        text = path.read_text(encoding="utf-8", errors="replace")
        respelled = respell_dynamic_shared(text)
        if respelled != text:
            path.write_text(respelled, encoding="utf-8")
        texts.append(respelled)
    header = with_cpu_branch(header, names_in(texts + _outside_texts(tr)))
    if header is not None:
        header_path.write_text(header, encoding="utf-8")
    return tr


def _outside_texts(tr: Translated, limit: int = 400) -> list[str]:
    """The code the build reads from beside the tree, as it is there (a port's ``-I../x-cuda`` headers, its
    ``../x-cuda/timer.cpp``): its names choose CPU entries too. At most ``limit`` files."""
    program = tr.program
    paths: list[Path] = [tr.tree / s for s in program.sources if s.startswith("../")]
    for inc in (i for i in program.include_dirs if i.startswith("../")):
        folder = tr.tree / inc
        if folder.is_dir():
            paths += sorted(p for p in folder.iterdir() if p.suffix in SOURCE_SUFFIXES)
    return [p.read_text(encoding="utf-8", errors="replace") for p in paths[:limit] if p.is_file()]


def names_in(texts: Iterable[str]) -> set[str]:
    """The identifiers the code of ``texts`` names, comments and string literals aside."""
    names: set[str] = set()
    for text in texts:
        names.update(_IDENTIFIER.findall(lex(text).masked))
    return names


def c_compiler(cxx: str) -> str:
    """The C compiler beside the C++ one (g++ -> gcc, clang++ -> clang), for a program's plain C units."""
    name = Path(cxx).name
    for cpp, c in (("clang++", "clang"), ("g++", "gcc"), ("c++", "cc")):
        if name.endswith(cpp):
            return str(Path(cxx).with_name(name[: -len(cpp)] + c)) if "/" in cxx else name[: -len(cpp)] + c
    return "cc"


def build_commands(tr: Translated, hc: HipCpu, exe: Path, optimize: str = "-O1") -> list[list[str]]:
    """The program's plain C units, each compiled as C to an object (they name no HIP: HIP-CPU's headers are
    C++); then one g++/clang++ call over every other unit and those objects, the compatibility header included
    first where it exists (files that need only its CPU branch do not include it themselves)."""
    program = tr.program
    includes = [f"-I{tr.tree / inc}" for inc in program.include_dirs] + [f"-D{d}" for d in program.defines]
    commands: list[list[str]] = []
    objects: list[str] = []
    for unit in (s for s in program.sources if s.endswith(_C_SUFFIXES)):
        Path(tr.tree / unit.replace("../", "up/")).parent.mkdir(parents=True, exist_ok=True)
        obj = str(tr.tree / (unit.replace("../", "up/") + ".o"))  # a unit beside the tree: its object in it
        commands.append([c_compiler(hc.compiler), "-c", optimize, "-w", *includes, str(tr.tree / unit), "-o", obj])
        objects.append(obj)
    cmd = [hc.compiler, "-std=c++17", optimize, "-w", "-pthread", "-I", str(hc.include()), *includes]
    if (tr.tree / HEADER_NAME).is_file():
        cmd += ["-include", str(tr.tree / HEADER_NAME)]
    units = [str(tr.tree / s) for s in program.sources if not s.endswith(_C_SUFFIXES)]
    cmd += ["-x", "c++", *units, "-x", "none", *objects, "-o", str(exe), *hc.link]
    return [*commands, cmd]


def missing_inputs(line: RunLine | None, program: Program) -> list[str]:
    """The arguments of ``line`` that are relative paths (holding a ``/``) into a folder that is not beside the
    original program: inputs the project did not ship with its sources (HeCBench's ``../data/...``), which the
    run can neither read nor write. (A missing file in a folder that exists may be an output: it is run.)"""
    if line is None:
        return []
    paths = (a for a in line.arguments if "/" in a and not a.startswith(("/", "-")) and not re.search(r"[\s=;]", a))
    return [a for a in paths if not (program.root / a).exists() and not (program.root / a).parent.is_dir()]


def _names_hip(text: str) -> bool:
    return any(name.startswith(("hip", "__hip", "HIP")) for name in names_in([text]))


def _tree_digest(tr: Translated) -> str:
    """What the build depends on: two engines giving the same files share one build and run."""
    digest = hashlib.sha256()
    for path in sorted(p for p in tr.tree.rglob("*") if p.is_file()):
        digest.update(path.relative_to(tr.tree).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _first_errors(log: str, limit: int = 3) -> str:
    lines = [line.strip() for line in log.splitlines() if "error" in line]
    return "\n".join(lines[:limit]) or log[-800:]


def run_translation(
    tr: Translated,
    hc: HipCpu,
    limits: Limits,
    cache: dict[str, RunResult],
    scale: float = 1.0,
    build_timeout: float = 900,
    retry_scale: float | None = None,
) -> RunResult:
    """Build and run one translation on the CPU under ``limits``, its run line's sizes scaled by ``scale`` (1:
    as written), and where that runs out of time and ``retry_scale`` is given, once more at that scale (the
    reason says both); its verdict."""
    program, engine = tr.program, tr.engine
    t0 = time.perf_counter()
    base = {
        "program": program.name,
        "engine": engine,
        "runtime": RUNTIME,
        "expected_output": program.expected_output or "",
    }
    if tr.error:
        return RunResult(result=FAIL, reason=tr.error, **base)  # type: ignore[arg-type]
    texts = {rel: (tr.tree / rel).read_text(encoding="utf-8", errors="replace") for rel in program.files}
    needs = needs_before_build(texts, hc.include())
    if any(s.endswith(_C_SUFFIXES) and _names_hip(texts.get(s, "")) for s in program.sources):
        needs.append("a C unit calling the HIP runtime (HIP-CPU's headers are C++)")
    written = run_line(program.root / "Makefile") if (program.root / "Makefile").is_file() else None
    needs += [f"the input `{path}` its run line names (not in the tree)" for path in missing_inputs(written, program)]
    if needs:
        return RunResult(result=NOT_RUN, reason="needs " + "; ".join(needs), **base)  # type: ignore[arg-type]
    key = _tree_digest(tr)
    if key in cache:  # the other engine gave the same files
        return replace(cache[key], engine=engine)
    exe = tr.tree / f"{program.name}.cpu"
    built, log = True, ""
    for cmd in build_commands(tr, hc, exe):
        try:
            proc = subprocess.run(
                cmd, capture_output=True, text=True, errors="replace", timeout=build_timeout, check=False
            )
            built, log = proc.returncode == 0, proc.stdout + proc.stderr
        except subprocess.TimeoutExpired:
            built, log = False, f"build timed out after {build_timeout:.0f} s"
        if not built:
            break
    if not built:
        header_path = tr.tree / HEADER_NAME
        header = header_path.read_text(encoding="utf-8") if header_path.is_file() else ""
        lacks = needs_from_build_log(log, load_catalog().by_provided_name, header)
        if lacks:
            result = RunResult(result=NOT_RUN, reason="needs " + "; ".join(lacks), **base)  # type: ignore[arg-type]
        else:
            reason = "does not build against HIP-CPU:\n" + _first_errors(log)
            result = RunResult(result=FAIL, reason=reason, seconds=time.perf_counter() - t0, **base)
        cache[key] = result
        return result
    result = _run_built(exe, tr, written, limits, scale, base)
    # Retried only where the smaller scale changes the run line (a line without sizes >= 2048 would not).
    if result.result == TIMEOUT and written and retry_scale and scaled(written, retry_scale) != scaled(written, scale):
        retried = _run_built(exe, tr, written, limits, retry_scale, base)
        result = replace(retried, reason=f"{retried.reason} [at scale {scale:g}: TIMEOUT, {result.reason}]")
    result = replace(result, seconds=time.perf_counter() - t0)
    cache[key] = result
    return result


def _run_built(
    exe: Path, tr: Translated, written: RunLine | None, limits: Limits, scale: float, base: dict[str, str]
) -> RunResult:
    """One run of the built program with its run line scaled by ``scale``; its verdict."""
    program = tr.program
    line = scaled(written, scale) if written else None
    outcome = run_limited([str(exe), *(line.arguments if line else ())], tr.tree, limits)
    ran_as = f"ran `{line.text}`" if line else ""
    if written and line and line.text != written.text:
        ran_as += f" (scaled by {scale:g} from `{written.text}`)"
    if outcome.status is None:
        reason = outcome.describe_stop(limits) + (f"; {ran_as}" if ran_as else "")
        return RunResult(result=TIMEOUT, reason=reason, translated_output=outcome.output[-2000:], **base)  # type: ignore[arg-type]
    passed, why = judge(outcome.status, outcome.stdout, program.expected_output, program.run_tolerance)
    reason = "; ".join(filter(None, [why, ran_as, f"{outcome.cpu_seconds:.1f} CPU s"]))
    output = outcome.output.strip()[-2000:]
    return RunResult(result=PASS if passed else FAIL, reason=reason, translated_output=output, **base)  # type: ignore[arg-type]


def run_all_cpu(
    programs: list[Program],
    engines: list[str],
    hc: HipCpu,
    console: Console,
    err: Console,
    limits: Limits,
    keep: bool = False,
    scale: float = 1.0,
) -> list[RunResult]:
    """Every program with every engine on the CPU, one at a time (HIP-CPU uses every core for one program)."""
    work = Path(tempfile.mkdtemp(prefix="hipify-cpu-run-"))
    sizes = "run lines as written" if scale == 1 else f"run lines scaled by {scale:g} (--run-scale)"
    err.print(f"--run: no GPU: on the CPU through {hc.describe()}; a program may use {limits.describe()}; {sizes}")
    results: list[RunResult] = []
    try:
        for program in programs:
            cache: dict[str, RunResult] = {}
            for engine in engines:
                tr = translate_for_cpu(program, engine, work)
                try:
                    result = run_translation(tr, hc, limits, cache, scale)
                finally:
                    if keep:
                        err.print(f"  kept {tr.tree}", highlight=False)
                    else:
                        shutil.rmtree(tr.tree, ignore_errors=True)
                err.print(f"  run {program.name} ({engine}): {result.result}", highlight=False)
                results.append(result)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    render_cpu(results, console)
    return results


def counts(results: list[RunResult]) -> dict[str, int]:
    """ran / passed / failed / timed out / not run."""
    ran = [r for r in results if r.result != NOT_RUN]
    return {
        "ran": len(ran),
        "passed": sum(r.result == PASS for r in ran),
        "failed": sum(r.result == FAIL for r in ran),
        "timed out": sum(r.result == TIMEOUT for r in ran),
        "not run": len(results) - len(ran),
    }


def render_cpu(results: list[RunResult], console: Console) -> None:
    table = Table(title="run on the CPU (HIP-CPU): translation with hipLaunchKernelGGL, built with g++/clang++")
    for col in ("program", "engine", "result", "output / reason"):
        table.add_column(col, overflow="fold")
    style = {PASS: "green", FAIL: "red", TIMEOUT: "yellow", NOT_RUN: "yellow"}
    for r in results:
        detail = r.reason if r.result != PASS else r.translated_output.splitlines()[-1] if r.translated_output else ""
        table.add_row(r.program, r.engine, f"[{style.get(r.result, '')}]{r.result}[/]", detail[:400])
    console.print(table)
    c = counts(results)
    console.print(", ".join(f"{v} {k}" for k, v in c.items()))
    reasons: dict[str, int] = {}
    for r in results:
        if r.result == NOT_RUN:
            reasons[r.reason] = reasons.get(r.reason, 0) + 1
    for reason, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
        console.print(f"  not run ({n}): {reason}", highlight=False)
