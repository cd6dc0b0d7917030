"""Engine selection: ``--engine auto|clang|regex``, with per-file fallback to regex."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..knowledge.codes import ENGINE_FALLBACK, INTERNAL_ERROR, WORK_LIMIT
from ..knowledge.table import MappingTable
from ..machinery.limits import any_engine_breach
from ..model import Diagnostic, EngineResult, Severity, SourceFile
from ..options import Options

EngineFn = Callable[[SourceFile, MappingTable, Options], EngineResult]
ENGINE_NAMES = ("auto", "clang", "regex")


def _regex() -> EngineFn:
    from ..regex_mode.engine import run

    return run


def clang_status() -> tuple[bool, str]:
    """(usable, reason) for the clang engine in this environment."""
    try:
        from ..clang_mode.environment import clang_available
    except ImportError as exc:  # the package itself is broken/missing
        return False, f"clang engine not importable: {exc}"
    return clang_available()


def engine_environment(options: Options) -> str:
    """What, besides the options and the text, a result depends on: for the clang engine, libclang
    and the CUDA headers it parses against (where they are, and a fingerprint of their content)."""
    if options.engine == "regex":
        return "regex"
    usable, reason = clang_status()
    if not usable:
        return f"clang:False:{reason}"
    from ..clang_mode.environment import detect_cuda, fingerprint, resource_dir

    env = detect_cuda(options.cuda_path)
    return f"clang:{reason}:{env.describe()}:{fingerprint(env)}:{resource_dir()}"


def run_engine(source: SourceFile, table: MappingTable, options: Options) -> EngineResult:
    """Run the chosen engine; never raises. ``auto`` and ``clang`` fall back to regex per file
    (one the clang engine fails on; one over its work limits is translated from text alone)."""
    breach = any_engine_breach(source.text)
    if breach is not None:
        diag = Diagnostic(WORK_LIMIT, f"not translated: {breach.describe()}", severity=Severity.ERROR)
        return EngineResult((), (diag,), "none")
    if options.engine == "regex":
        return _run_guarded(_regex(), source, table, options)
    usable, reason = clang_status()
    code, severity = ENGINE_FALLBACK, Severity.INFO
    if usable:
        from ..clang_mode.engine import run as clang_run

        try:
            return clang_run(source, table, options)
        except Exception as exc:  # an engine bug must not lose the file: fall back, and say so
            reason = f"clang engine failed on this file ({type(exc).__name__}: {exc})"
            severity = Severity.WARNING
    return regex_fallback(source, table, options, reason, code, severity)


def regex_fallback(
    source: SourceFile,
    table: MappingTable,
    options: Options,
    reason: str,
    code: str = ENGINE_FALLBACK,
    severity: Severity = Severity.WARNING,
) -> EngineResult:
    """The regex engine's translation, with a note saying why the clang engine's is not used."""
    result = _run_guarded(_regex(), source, table, options)
    note = Diagnostic(code, f"{reason}; used the regex engine", severity=severity)
    return replace(result, diagnostics=(note,) + result.diagnostics)


def _run_guarded(engine: EngineFn, source: SourceFile, table: MappingTable, options: Options) -> EngineResult:
    try:
        return engine(source, table, options)
    except Exception as exc:  # never raise: the file is reported, left unchanged
        diag = Diagnostic(
            INTERNAL_ERROR, f"internal error in engine: {type(exc).__name__}: {exc}", severity=Severity.ERROR
        )
        return EngineResult((), (diag,), "regex")
