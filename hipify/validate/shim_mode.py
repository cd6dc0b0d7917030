"""``hipify-py validate --shim``: each program compiled *unmodified* for AMD GPUs, with the include folder
``hipify-py shim --include-dir`` writes for it on the include path (``hipcc -I DIR``), instead of translated.

A program that does not compile is a failure unless the shim named the cause: its first error is at a place the
shim reported as one that no header can stand for (NAMED), which is what the tool promises a single-source project.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

from ..model import Diagnostic, Severity
from ..options import Options
from ..shim import plan_shim, render_include_dir
from ..sources.fileio import read_source
from .corpus import Program
from .mapping import FileTranslation
from .runner import _TRANSLATE_LOCK, ERROR, FAIL, Result, Translated, before_compiling, compile_translation
from .toolchain import Toolchain

NAMED = "NAMED"  # did not compile, at a place the shim named (it needs a HIP branch)
SHIM_DIR = ".hipify-shim"  # the include folder, inside the program's copy


def shim_program(
    program: Program, engine: str, work_root: str, options: Options
) -> tuple[Translated, list[Diagnostic]]:
    """The program copied as it is, with its include folder in ``SHIM_DIR``; the shim's findings."""
    tree = Path(tempfile.mkdtemp(prefix=f"hipify-validate-{program.name}-shim-", dir=work_root))
    shutil.copytree(program.root, tree, dirs_exist_ok=True)
    texts = {str(tree / rel): read_source(tree / rel).text for rel in program.files}
    with_dirs = replace(options, engine=engine, include_dirs=tuple(str(tree / d) for d in program.include_dirs))
    plan = plan_shim(texts, with_dirs)
    for relative, text in render_include_dir(plan).items():
        path = tree / SHIM_DIR / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    compiled = replace(program, include_dirs=(SHIM_DIR, *program.include_dirs))
    unchanged = {rel: FileTranslation(rel, texts[str(tree / rel)], texts[str(tree / rel)], ()) for rel in program.files}
    translated = Translated(compiled, engine, tree, unchanged, len(plan.findings), {engine})
    named = [d for d in plan.findings if d.severity in (Severity.ERROR, Severity.WARNING)]
    return translated, [replace(d, path=Path(d.path).relative_to(tree).as_posix()) for d in named]


def validate_shim_program(
    program: Program, engine: str, tc: Toolchain, archs: tuple[str, ...], keep: bool = False
) -> list[Result]:
    """Compile ``program`` unmodified with its include folder for ``archs``."""
    base = {"program": program.name, "engine": engine, "toolchain": tc.describe()}
    early = before_compiling(program, tc, archs, base)
    if early is not None:
        return early
    options = Options(rocm_version=tc.rocm_version, offload_arch=archs)
    try:
        with _TRANSLATE_LOCK:
            tr, named = shim_program(program, engine, tc.work_root(), options)
    except Exception as exc:  # a crash of the shim is a finding of its own, not a skipped program
        reason = f"hipify-py shim raised on {program.name}: {type(exc).__name__}: {exc}"
        return [Result(arch=a, result=ERROR, reason=reason, **base) for a in archs]  # type: ignore[arg-type]
    try:
        results = compile_translation(tr, tc, archs)
        for result in results:
            if result.result == FAIL:
                _judge(result, named)
        return results
    finally:
        if not keep:
            shutil.rmtree(tr.tree, ignore_errors=True)


def _judge(result: Result, named: list[Diagnostic]) -> None:
    """A failure whose first error is at a line the shim named is NAMED, with the finding as the reason."""
    error = result.first_error
    if error is None or not named:
        return
    where = (error.original_file, error.original_line)
    for diag in named:
        if where == (diag.path, diag.line):
            result.result = NAMED
            result.reason = f"named by hipify-py shim: {diag.path}:{diag.line}: {diag.message} [{diag.code}]"
            return
    result.reason = f"the shim named {len(named)} other place(s), first {named[0].path}:{named[0].line}"
