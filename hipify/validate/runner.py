"""Translate a corpus program with one engine, compile the translation with hipcc, and report."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..buildfiles.build_phase import is_build_file
from ..compat import HEADER_NAME
from ..options import Options, parse_rocm_version
from .build import BuildOutcome, build_translation
from .corpus import CUDA_SUFFIXES, Program
from .mapping import FileTranslation, MappedError, first_error, parse_errors
from .parts import NOT_JUDGED, build_parts, lacking, libraries_included
from .toolchain import Toolchain

PASS, FAIL, SKIPPED, ERROR = "PASS", "FAIL", "SKIPPED", "ERROR"

STOPPED_AT = re.compile(r"generated when compiling for (\S+?)\.?$", re.MULTILINE)

# Translation runs one file at a time (libclang is not known to be thread-safe); compiles run in parallel.
_TRANSLATE_LOCK = threading.Lock()


@dataclass
class Result:
    program: str
    engine: str
    arch: str
    toolchain: str
    result: str
    reason: str = ""
    first_error: MappedError | None = None
    errors: int = 0
    seconds: float = 0.0
    diagnostics: int = 0  # translation diagnostics (warnings about unsupported APIs etc.)
    command: str = ""
    log: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "program": self.program,
            "engine": self.engine,
            "arch": self.arch,
            "toolchain": self.toolchain,
            "result": self.result,
            "reason": self.reason,
            "errors": self.errors,
            "first_error": self.first_error.to_json() if self.first_error else None,
            "seconds": round(self.seconds, 2),
            "translation_diagnostics": self.diagnostics,
            "command": self.command,
        }


@dataclass
class Translated:
    program: Program
    engine: str
    tree: Path
    files: dict[str, FileTranslation] = field(default_factory=dict)
    diagnostics: int = 0
    engine_used: set[str] = field(default_factory=set)
    error: str = ""


def translate_program(program: Program, engine: str, work_root: str, options: Options | None = None) -> Translated:
    """Translate every source file of ``program`` into a fresh temp tree that keeps the layout."""
    from .. import (  # imported late: the engines may be missing while the pipeline is developed
        compat_header,
        translate_files,
    )
    from ..translation.api import samples_helpers

    tree = Path(tempfile.mkdtemp(prefix=f"hipify-validate-{program.name}-{engine}-", dir=work_root))
    result = Translated(program, engine, tree)
    opts = replace(options or Options(), engine=engine)
    sources: dict[str, str] = {}
    for src in sorted(p for p in program.root.rglob("*") if p.is_file()):
        rel = src.relative_to(program.root).as_posix()
        dst = tree / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if rel in program.files or is_build_file(rel):  # build files are translated with the sources
            sources[rel] = src.read_text(encoding="utf-8", errors="surrogateescape")  # a Latin-1 comment: kept
        else:
            shutil.copy2(src, dst)  # expected output, data, ...: copied as they are
    try:
        # As one project: what a translation unit needs from its headers is seen across files.
        outputs = translate_files({str(program.root / rel): text for rel, text in sources.items()}, opts,
                                  compat_dir=str(program.root))  # fmt: skip
        header = compat_header(outputs.values(), opts)
        if header is not None:  # written where the translated files include it from
            (tree / HEADER_NAME).write_text(header, encoding="utf-8")
        for helper, text in samples_helpers(outputs.values()).items():  # beside it: the samples helpers it lacks
            (tree / helper).write_text(text, encoding="utf-8")
    except Exception as exc:
        result.error = f"translate_files() raised on {program.name}: {type(exc).__name__}: {exc}"
        outputs = {}
    for rel, text in sources.items():
        out = outputs.get(str(program.root / rel))
        (tree / rel).write_text(out.text if out else text, encoding="utf-8", errors="surrogateescape")
        if out is None:
            continue
        result.files[rel] = FileTranslation(rel, text, out.text, tuple(out.edits))
        result.diagnostics += len(out.diagnostics)
        if not is_build_file(rel):  # a build file's translator is not a source engine
            result.engine_used.add(out.engine)
    return result


def compile_command(tc: Toolchain, tree_inner: str, program: Program, source: str, archs: tuple[str, ...]) -> list[str]:
    cmd = list(tc.hipcc)
    if tc.chroot:  # clang's temporary files go to the translated tree and vanish with it
        cmd.insert(len(cmd) - 1, f"TMPDIR={tree_inner}")
    cmd += [f"--offload-arch={a}" for a in archs]
    # hipcc compiles a C source as C: no C++ standard, and without HIP's platform macro (which its headers need)
    cmd += ["-D__HIP_PLATFORM_AMD__"] if source.endswith(".c") else ["-std=c++17"]
    cmd += ["-fno-color-diagnostics", "-ferror-limit=20"]
    for inc in program.include_dirs:
        cmd += ["-I", f"{tree_inner}/{inc}".rstrip("/.") or "/"]
    cmd += [f"-D{d}" for d in program.defines]
    if source.endswith(CUDA_SUFFIXES):
        cmd += ["-x", "hip"]
    cmd += ["-c", f"{tree_inner}/{source}", "-o", f"{tree_inner}/{source}.o"]
    return cmd


def _run(cmd: list[str], env: dict[str, str], timeout: float) -> tuple[int, str]:
    try:
        proc = subprocess.run(
            cmd, check=False, capture_output=True, text=True, timeout=timeout, env={**os.environ, **env}
        )
        return proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"").decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        return 124, out + f"\n(timed out after {timeout:.0f} s)"


def compile_translation(tr: Translated, tc: Toolchain, archs: tuple[str, ...], timeout: float = 600) -> list[Result]:
    """Compile every unit for all ``archs`` in one hipcc call; on failure, once per arch to say which fail."""
    program, engine = tr.program, tr.engine
    tree_inner = tc.inner_path(str(tr.tree))
    prefixes = {str(tr.tree), tree_inner}

    def attempt(arch_set: tuple[str, ...]) -> tuple[bool, list[MappedError], str, str, float]:
        t0 = time.perf_counter()
        errors: list[MappedError] = []
        logs, cmds = [], []
        ok = True
        for source in program.sources:
            cmd = compile_command(tc, tree_inner, program, source, arch_set)
            rc, out = _run(cmd, tc.env, timeout)
            cmds.append(" ".join(cmd[len(tc.hipcc) - 1 :] if tc.chroot else cmd))
            logs.append(out)
            if rc != 0:
                ok = False
                errs = parse_errors(out, prefixes, tr.files)
                if not errs:
                    errs = [
                        MappedError(out.strip().splitlines()[-1] if out.strip() else f"exit code {rc}", source, 0, 0)
                    ]
                errors += errs
        return ok, errors, "\n".join(logs), " && ".join(cmds), time.perf_counter() - t0

    base = {"program": program.name, "engine": engine, "toolchain": tc.describe(), "diagnostics": tr.diagnostics}
    ok, errors, log, cmd, secs = attempt(archs)

    def result(arch: str, ok_: bool, errors_: list[MappedError], log_: str, cmd_: str, secs_: float) -> Result:
        return Result(
            arch=arch,
            result=PASS if ok_ else FAIL,
            first_error=first_error(errors_),
            errors=len(errors_),
            seconds=secs_,
            command=cmd_,
            log=log_,
            **base,  # type: ignore[arg-type]
        )

    if ok or len(archs) == 1:
        return [result(a, ok, errors, log, cmd, secs / len(archs)) for a in archs]
    # clang stops at the first failing job: say which one, and compile the archs it did not reach alone.
    stopped = set(STOPPED_AT.findall(log))
    if stopped & {"host", "x86_64-unknown-linux-gnu"}:
        return [result(a, False, errors, log, cmd, secs / len(archs)) for a in archs]  # host code: every arch
    results = []
    for arch in archs:
        if arch in stopped or not stopped:
            results.append(result(arch, False, errors, log, cmd, secs))
        else:
            results.append(result(arch, *attempt((arch,))))
    return results


def validate_program(
    program: Program,
    engine: str,
    tc: Toolchain,
    archs: tuple[str, ...],
    keep: bool = False,
    options: Options | None = None,
    builds: list[BuildOutcome] | None = None,
    run: bool = False,
) -> list[Result]:
    """Translate ``program`` and compile each unit for ``archs``; when it has build files of its own and
    ``builds`` is a list, also build it with them (translated) and append the outcome. What the toolchain lacks
    (a library's headers, a build's tools and link files) makes the verdict "not judged", with the reason."""
    base = {"program": program.name, "engine": engine, "toolchain": tc.describe()}
    early = before_compiling(program, tc, archs, base)
    if early is not None:
        return early
    # the translated build files target the archs validated
    opts = options or Options(rocm_version=tc.rocm_version, offload_arch=archs)
    with _TRANSLATE_LOCK:
        tr = translate_program(program, engine, tc.work_root(), opts)
    try:
        if tr.error:
            return [Result(arch=a, result=ERROR, reason=tr.error, **base) for a in archs]  # type: ignore[arg-type]
        libs = libraries_included(f.translated for f in tr.files.values()) | set(program.hip_libs)
        headers = _missing_headers(tc, sorted(libs))
        if builds is not None and program.build_system:
            system = program.build_system
            lacks = headers or lacking(tc, build_parts(system, libs))
            # before the per-file compiles, whose objects (x.cu.o) make's built-in rules would pick up
            builds.append(
                BuildOutcome(program.name, engine, tc.describe(), system, None, False, False, not_judged=lacks)
                if lacks
                else build_translation(
                    program.name, engine, tr.tree, tr.files, tc, system, run, program.expected_output
                )
            )
        if headers:
            return [Result(arch=a, result=NOT_JUDGED, reason=headers, **base) for a in archs]  # type: ignore[arg-type]
        results = compile_translation(tr, tc, archs)
        used = ",".join(sorted(tr.engine_used))
        if used and used != engine:  # e.g. the clang engine fell back to regex on a file
            for r in results:
                r.reason = (r.reason + "; " if r.reason else "") + f"engine used: {used}"
        return results
    finally:
        if not keep:
            shutil.rmtree(tr.tree, ignore_errors=True)


def before_compiling(
    program: Program, tc: Toolchain, archs: tuple[str, ...], base: dict[str, str]
) -> list[Result] | None:
    """The verdicts of a program ``tc`` cannot judge, or None: "not judged" where the toolchain lacks a library's
    headers, skipped where the program needs a newer ROCm (translated for ``tc``'s, such APIs are reported)."""
    reason = _missing_headers(tc, program.hip_libs)
    if reason:
        return [Result(arch=a, result=NOT_JUDGED, reason=reason, **base) for a in archs]  # type: ignore[arg-type]
    if program.min_rocm and tc.rocm_version < parse_rocm_version(program.min_rocm):
        reason = (
            f"uses APIs of ROCm {program.min_rocm} that {tc.describe()} lacks "
            "(translated for it, they are reported: HPY106)"
        )
        return [Result(arch=a, result=SKIPPED, reason=reason, **base) for a in archs]  # type: ignore[arg-type]
    return None


def _missing_headers(tc: Toolchain, libs: Iterable[str]) -> str:
    """Why ``tc`` cannot compile a program using HIP libraries ``libs`` ("" when it has their headers)."""
    return "; ".join(filter(None, map(tc.missing_lib, libs)))


def _remove_stale_trees(root: str, max_age_s: float = 3600) -> None:
    """Translated trees left behind by killed runs (a finally block does not run on SIGKILL)."""
    now = time.time()
    for tree in Path(root).glob("hipify-validate-*"):
        try:
            if now - tree.stat().st_mtime > max_age_s:
                shutil.rmtree(tree, ignore_errors=True)
        except OSError:
            pass


# (program, engine, toolchain, archs, keep the trees) -> its results: another way of judging a program
ProgramCheck = Callable[[Program, str, Toolchain, tuple[str, ...], bool], list[Result]]


def validate_all(
    programs: list[Program],
    engines: list[str],
    toolchains: list[Toolchain],
    archs: tuple[str, ...],
    jobs: int,
    keep: bool = False,
    progress=None,
    builds: list[BuildOutcome] | None = None,
    run: bool = False,
    other_check: ProgramCheck | None = None,
) -> list[Result]:
    """Translate and compile every (program, engine, toolchain); ``jobs`` compiles run in parallel. ``other_check``:
    what to do with each instead (``validate.shim_mode``: compile it unmodified with its single-source include
    folder)."""
    for tc in toolchains:
        _remove_stale_trees(tc.work_root())
    tasks = [(p, e, tc) for tc in toolchains for e in engines for p in programs]
    results: list[list[Result]] = [[] for _ in tasks]

    def one(i: int) -> None:
        p, e, tc = tasks[i]
        try:
            if other_check is not None:
                results[i] = other_check(p, e, tc, archs, keep)
            else:
                results[i] = validate_program(p, e, tc, archs, keep, builds=builds, run=run)
        except Exception as exc:
            results[i] = [Result(p.name, e, a, tc.describe(), ERROR, f"{type(exc).__name__}: {exc}") for a in archs]
        if progress:
            progress(tasks[i], results[i])

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, range(len(tasks))))
    return [r for group in results for r in group]
