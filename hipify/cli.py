"""The hipify-py command line. Only this module reads sys.argv."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from pathlib import Path

from . import __version__
from .cache import default_cache_dir
from .discover import DEFAULT_EXTENSIONS, Found, discover
from .emit import (
    Destination,
    OutputMode,
    copy_file,
    unified_diff,
    write_result,
    write_stdout,
)
from .engines import ENGINE_NAMES
from .fileio import DEFAULT_MAX_SIZE, SourceError, decode
from .model import Severity
from .options import Options, parse_rocm_version
from .pipeline import FileResult, FileTask, process, translate_decoded
from .report import FORMATS, UNCONVERTED_CODES, Report, render
from .table import load_table

EXIT_OK, EXIT_FOUND, EXIT_ERROR = 0, 1, 2
SUBCOMMANDS = ("tables", "explain", "validate")
DEFAULT_RENAMES = {".cu": ".hip"}

EPILOG = """\
subcommands:
  hipify-py tables --format json|csv|md [--api NAME]   dump the mapping table
  hipify-py explain NAME                                one CUDA name in words
  hipify-py validate [PATH...]                          compile translations with hipcc

exit codes:
  0  nothing to do, or everything was written
  1  --check or --diff found files that would change (or, for --check, untranslated CUDA APIs)
  2  usage error, unreadable input, or internal error
"""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hipify-py",
        description="Translate CUDA sources to HIP.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or directories; '-' reads stdin")
    p.add_argument("--version", action="version", version=f"hipify-py {__version__}")

    out = p.add_argument_group("output (default: stdout for a single file)")
    mode = out.add_mutually_exclusive_group()
    mode.add_argument("-o", "--output", metavar="FILE", help="write the translation of one input to FILE")
    mode.add_argument("--out-dir", "--o-dir", metavar="DIR", help="mirror the input tree into DIR")
    mode.add_argument(
        "--in-place", "--inplace", action="store_true", help="rewrite files in place (backup FILE.prehip)"
    )
    mode.add_argument("--diff", action="store_true", help="print a unified diff (git apply-able); exit 1 if any")
    mode.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if a file would change or untranslated CUDA APIs remain",
    )
    mode.add_argument("--examine", action="store_true", help="write nothing; print statistics only")
    out.add_argument("--no-backup", action="store_true", help="with --in-place: do not keep FILE.prehip")
    out.add_argument("--backup-suffix", default=".prehip", metavar="SUFFIX")
    out.add_argument(
        "--rename-extensions",
        action="store_true",
        help="with --out-dir: name .cu outputs .hip (see --rename) and fix includes to match",
    )
    out.add_argument(
        "--rename",
        action="append",
        default=[],
        metavar="OLD=NEW",
        help="extension rename for --rename-extensions (default .cu=.hip); repeatable",
    )
    out.add_argument(
        "--copy-other-files",
        action="store_true",
        help="with --out-dir: also copy files that are not sources (build files, data)",
    )
    out.add_argument("--print-stats", action="store_true", help="print conversion statistics to stderr")
    out.add_argument("--report", metavar="FILE", help="write a porting report")
    out.add_argument("--report-format", choices=FORMATS, help="report format (default: from FILE's suffix)")
    out.add_argument(
        "--validation", metavar="JSON", help="include results of 'hipify-py validate --json JSON' in the report"
    )
    out.add_argument("-q", "--quiet", action="store_true", help="only errors on stderr")
    out.add_argument("--no-progress", action="store_true", help="no progress bar")

    tr = p.add_argument_group("translation")
    tr.add_argument(
        "--engine",
        choices=ENGINE_NAMES,
        default="auto",
        help="clang (libclang, AST-aware), regex (lexer-aware text), auto (clang, else regex)",
    )
    tr.add_argument("--roc", action="store_true", help="prefer rocBLAS/rocSPARSE/rocRAND/... names where they exist")
    tr.add_argument("--miopen", action="store_true", help="translate cuDNN to MIOpen")
    tr.add_argument("--experimental", action="store_true", help="also translate APIs HIP marks experimental")
    ks = tr.add_mutually_exclusive_group()
    ks.add_argument(
        "--hip-kernel-execution-syntax",
        action="store_true",
        help="rewrite k<<<g, b, s, st>>>(a) to hipLaunchKernelGGL(k, dim3(g), dim3(b), s, st, a)",
    )
    ks.add_argument("--cuda-kernel-execution-syntax", action="store_true", help="keep <<<...>>> launches (default)")
    tr.add_argument(
        "--use-hip-data-types",
        action="store_true",
        help="accepted for compatibility: cudaDataType already becomes hipDataType, which the "
        "ROCm 6 libraries take (hipblasDatatype_t is gone)",
    )
    tr.add_argument(
        "--amap",
        action="store_true",
        help="translate as much as possible: inactive #if branches too, overriding the skip flags",
    )
    tr.add_argument(
        "--skip-excluded-preprocessor-conditional-blocks",
        action="store_true",
        help="leave code in inactive #if branches untranslated",
    )
    tr.add_argument(
        "--default-preprocessor", action="store_true", help="same as --skip-excluded-preprocessor-conditional-blocks"
    )
    tr.add_argument("--rocm", default="6.4", metavar="X.Y", help="target ROCm version (default 6.4)")
    tr.add_argument("--no-runtime-include", action="store_true", help="never insert #include <hip/hip_runtime.h>")
    tr.add_argument("--no-warn-unknown", action="store_true", help="do not warn about unknown CUDA-like names")

    cl = p.add_argument_group("parser (clang engine; -D also steers the regex engine's #if handling)")
    cl.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=V]")
    cl.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR")
    cl.add_argument("-p", dest="build_dir", metavar="BUILD_DIR", help="directory with compile_commands.json")
    cl.add_argument(
        "--cuda-path",
        metavar="DIR",
        default="",
        help="CUDA toolkit to parse against ('none': parse without CUDA headers)",
    )

    run = p.add_argument_group("run")
    run.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help="worker processes (0 = all cores)")
    run.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="skip matching paths")
    run.add_argument("--no-gitignore", action="store_true", help="do not honour .gitignore files")
    run.add_argument(
        "--extensions",
        metavar="LIST",
        help=f"comma-separated source extensions (default {','.join(DEFAULT_EXTENSIONS)})",
    )
    run.add_argument("--encoding", default="utf-8", help="encoding of input files (default utf-8)")
    run.add_argument("--max-size", type=int, default=DEFAULT_MAX_SIZE, metavar="BYTES")
    run.add_argument("--no-cache", action="store_true", help="do not read or write the result cache")
    run.add_argument("--cache-dir", metavar="DIR", help=f"result cache (default {default_cache_dir()})")
    return p


class UsageError(Exception):
    pass


def options_from_args(args: argparse.Namespace, clang_args: Sequence[str] = ()) -> Options:
    try:
        rocm = parse_rocm_version(args.rocm)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return Options(
        engine=args.engine,
        roc=args.roc,
        miopen=args.miopen,
        experimental=args.experimental,
        hip_kernel_syntax=args.hip_kernel_execution_syntax,
        use_hip_data_types=args.use_hip_data_types,
        amap=args.amap,
        skip_excluded_blocks=args.skip_excluded_preprocessor_conditional_blocks or args.default_preprocessor,
        rocm_version=rocm,
        insert_runtime_include=not args.no_runtime_include,
        warn_unknown=not args.no_warn_unknown,
        rename_extensions=args.rename_extensions,
        defines=tuple(args.defines),
        include_dirs=tuple(args.include_dirs),
        clang_args=tuple(clang_args),
        build_dir=args.build_dir or "",
        cuda_path=args.cuda_path,
        use_cache=not args.no_cache,
    )


def _mode(args: argparse.Namespace) -> OutputMode:
    if args.output:
        return OutputMode.OUTPUT_FILE
    if args.out_dir:
        return OutputMode.OUT_DIR
    if args.in_place:
        return OutputMode.IN_PLACE
    if args.diff:
        return OutputMode.DIFF
    if args.check:
        return OutputMode.CHECK
    if args.examine:
        return OutputMode.EXAMINE
    return OutputMode.STDOUT


def _renames(args: argparse.Namespace) -> dict[str, str]:
    renames = dict(DEFAULT_RENAMES)
    for item in args.rename:
        old, sep, new = item.partition("=")
        if not sep or not old.startswith(".") or not new.startswith("."):
            raise UsageError(f"--rename expects .OLD=.NEW, got {item!r}")
        renames[old] = new
    return renames


def _err(message: str) -> None:
    print(message, file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        return _subcommand(argv[0], argv[1:])
    clang_args: list[str] = []
    if "--" in argv:
        split = argv.index("--")
        argv, clang_args = argv[:split], argv[split + 1 :]
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed the problem
        return EXIT_OK if exc.code == 0 else EXIT_ERROR
    try:
        return _run(args, clang_args)
    except UsageError as exc:
        _err(f"hipify-py: error: {exc}")
        return EXIT_ERROR
    except KeyboardInterrupt:
        _err("hipify-py: interrupted; files already written are complete, the rest are unchanged")
        return EXIT_ERROR
    except BrokenProcessPool:
        _err(
            "hipify-py: error: a worker process died (a libclang crash?); files already written are complete, "
            "the rest are unchanged; re-run with --engine regex or -j 1 to find the file"
        )
        return EXIT_ERROR
    except Exception as exc:  # an internal error still gets exit code 2 and one clear line
        _err(f"hipify-py: internal error: {type(exc).__name__}: {exc}")
        return EXIT_ERROR


def _subcommand(name: str, argv: list[str]) -> int:
    if name == "validate":
        from .validate import validate_main

        return validate_main(argv)
    from .tables_cmd import explain_main, tables_main

    return tables_main(argv) if name == "tables" else explain_main(argv)


def _run(args: argparse.Namespace, clang_args: Sequence[str]) -> int:
    options = options_from_args(args, clang_args)
    mode = _mode(args)
    if not args.paths:
        raise UsageError("no input: give files or directories, or '-' for stdin")
    if args.jobs < 0:
        raise UsageError("-j must be >= 0")
    if (args.rename_extensions or args.copy_other_files) and mode != OutputMode.OUT_DIR:
        raise UsageError("--rename-extensions and --copy-other-files need --out-dir")
    load_table()  # load once in the parent: forked workers share it
    cache_dir = "" if args.no_cache else str(Path(args.cache_dir) if args.cache_dir else default_cache_dir())
    if args.paths == ["-"]:
        return _run_stdin(args, options, mode, cache_dir)
    if "-" in args.paths:
        raise UsageError("'-' (stdin) cannot be combined with other paths")

    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS
    if args.extensions:
        extensions = tuple(e if e.startswith(".") else f".{e}" for e in args.extensions.split(",") if e)
    out_dir = Path(args.out_dir).resolve() if args.out_dir else None
    exclude = tuple(args.exclude)
    found, problems = discover([Path(p) for p in args.paths], extensions, exclude, not args.no_gitignore)
    if out_dir is not None:  # never read back our own output when it lies inside the input tree
        found = [f for f in found if not _inside(f.path.resolve(), out_dir)]
    exit_code = EXIT_OK
    for problem in problems:
        _err(f"{problem.path}: error: {problem.message}")
        exit_code = EXIT_ERROR
    if not found:
        if not problems:
            _err("hipify-py: no source files found")
        return exit_code
    if mode == OutputMode.STDOUT and len(found) > 1:
        raise UsageError("several input files: choose --in-place, --out-dir, --diff, --check or --examine")
    if mode == OutputMode.OUTPUT_FILE and len(found) != 1:
        raise UsageError("-o takes exactly one input file")

    renames = _renames(args) if args.rename_extensions else {}
    include_renames = _include_renames(found, renames)
    tasks = [
        FileTask(str(f.path), _display(f), options, args.encoding, args.max_size, include_renames, cache_dir)
        for f in found
    ]
    report = Report()
    dest_root = _mirror_root(found) if out_dir is not None else None
    for item, result in zip(found, _results(tasks, args), strict=True):
        report.add(result)
        code = _emit(result, item, mode, args, out_dir, dest_root, renames)
        exit_code = max(exit_code, code)
        if result.error is not None and result.error.severity == Severity.ERROR and item.explicit:
            exit_code = EXIT_ERROR
    if args.copy_other_files and out_dir is not None and dest_root is not None:
        _copy_others([Path(p) for p in args.paths], found, out_dir, dest_root, exclude, not args.no_gitignore)
    return _finish(report, args, mode, exit_code)


def _run_stdin(args: argparse.Namespace, options: Options, mode: OutputMode, cache_dir: str) -> int:
    try:
        decoded = decode(sys.stdin.buffer.read(), args.encoding)
    except SourceError as err:
        _err(f"<stdin>: {err.code} {err.message}")
        return EXIT_ERROR
    task = FileTask("<stdin>", "<stdin>", options, args.encoding, args.max_size, (), cache_dir)
    result = translate_decoded(task, decoded)
    report = Report()
    report.add(result)
    code = EXIT_OK
    if mode == OutputMode.OUTPUT_FILE:
        write_result(result, Destination(Path(args.output)))
    elif mode == OutputMode.DIFF:
        sys.stdout.write(unified_diff(result, "<stdin>"))
        code = EXIT_FOUND if result.changed else EXIT_OK
    elif mode == OutputMode.CHECK:
        code = _check_code(result)
    elif mode == OutputMode.STDOUT:
        write_stdout(result)
    elif mode != OutputMode.EXAMINE:
        raise UsageError(f"stdin cannot be used with --{mode.value}")
    return _finish(report, args, mode, code)


def _results(tasks: list[FileTask], args: argparse.Namespace) -> Iterator[FileResult]:
    """Results in input order, whatever -j is (so output does not depend on scheduling)."""
    jobs = args.jobs or os.cpu_count() or 1
    show_progress = len(tasks) > 20 and not args.no_progress and not args.quiet and sys.stderr.isatty()
    if jobs == 1 or len(tasks) < 4:
        stream: Iterable[FileResult] = map(process, tasks)
        yield from _progress(stream, len(tasks), show_progress)
        return
    chunk = max(1, min(32, len(tasks) // (jobs * 8) or 1))
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("fork")) as pool:
        yield from _progress(pool.map(process, tasks, chunksize=chunk), len(tasks), show_progress)


def _progress(results: Iterable[FileResult], total: int, show: bool) -> Iterator[FileResult]:
    if not show:
        yield from results
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    columns = (TextColumn("hipify"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        bar = progress.add_task("files", total=total)
        for result in results:
            progress.advance(bar)
            yield result


def _display(found: Found) -> str:
    path = found.path
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def _inside(path: Path, directory: Path) -> bool:
    return path == directory or directory in path.parents


def _mirror_root(found: list[Found]) -> Path:
    """The directory whose layout --out-dir reproduces."""
    roots = {f.root.resolve() for f in found}
    if len(roots) == 1:
        return roots.pop()
    return Path(os.path.commonpath([str(r) for r in roots]))


def _renamed(path: Path, renames: dict[str, str]) -> Path:
    new_suffix = renames.get(path.suffix)
    return path.with_suffix(new_suffix) if new_suffix else path


def _include_renames(found: list[Found], renames: dict[str, str]) -> tuple[tuple[str, str], ...]:
    pairs = {f.path.name: _renamed(f.path, renames).name for f in found}
    return tuple(sorted((old, new) for old, new in pairs.items() if old != new))


def _destination(
    item: Found,
    mode: OutputMode,
    args: argparse.Namespace,
    out_dir: Path | None,
    dest_root: Path | None,
    renames: dict[str, str],
) -> Destination:
    if mode == OutputMode.OUTPUT_FILE:
        return Destination(Path(args.output))
    if mode == OutputMode.IN_PLACE:
        backup = None if args.no_backup else item.path.with_name(item.path.name + args.backup_suffix)
        return Destination(item.path, backup)
    assert out_dir is not None and dest_root is not None
    relative = item.path.resolve().relative_to(dest_root)
    return Destination(out_dir / _renamed(relative, renames))


def _check_code(result: FileResult) -> int:
    if result.changed or any(d.code in UNCONVERTED_CODES for d in result.diagnostics):
        return EXIT_FOUND
    return EXIT_OK


def _emit(
    result: FileResult,
    item: Found,
    mode: OutputMode,
    args: argparse.Namespace,
    out_dir: Path | None,
    dest_root: Path | None,
    renames: dict[str, str],
) -> int:
    if result.error is not None:
        if not args.quiet or result.error.severity == Severity.ERROR:
            _err(result.error.format(result.display))
        if mode == OutputMode.OUT_DIR and result.error.code in ("HPY301", "HPY302", "HPY304"):
            assert out_dir is not None and dest_root is not None
            copy_file(item.path, out_dir / item.path.resolve().relative_to(dest_root))  # mirror stays complete
        return EXIT_OK
    if not args.quiet:
        for diag in result.diagnostics:
            if diag.severity != Severity.INFO or args.print_stats:
                _err(diag.format())
    if mode == OutputMode.STDOUT:
        write_stdout(result)
    elif mode == OutputMode.DIFF:
        if result.changed:
            sys.stdout.write(unified_diff(result, Path(result.display).as_posix()))
            return EXIT_FOUND
    elif mode == OutputMode.CHECK:
        code = _check_code(result)
        if result.changed and not args.quiet:
            _err(f"would translate {result.display}")
        return code
    elif mode == OutputMode.EXAMINE:
        pass
    elif mode == OutputMode.IN_PLACE:
        if result.changed:
            write_result(result, _destination(item, mode, args, out_dir, dest_root, renames))
    else:
        try:
            write_result(result, _destination(item, mode, args, out_dir, dest_root, renames))
        except OSError as exc:
            _err(f"{result.display}: HPY306 cannot write output: {exc}")
            return EXIT_ERROR
    return EXIT_OK


def _copy_others(
    paths: list[Path], found: list[Found], out_dir: Path, dest_root: Path, exclude: tuple[str, ...], use_gitignore: bool
) -> None:
    sources = {f.path.resolve() for f in found}
    others, _ = discover([p for p in paths if p.is_dir()], (), exclude, use_gitignore)
    for item in others:
        real = item.path.resolve()
        if real in sources or _inside(real, out_dir):
            continue
        copy_file(item.path, out_dir / real.relative_to(dest_root))


def _load_validation(path: Path) -> list[dict[str, object]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read validation results {path}: {exc}") from None
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list):
        raise UsageError(f"{path} is not the JSON of 'hipify-py validate --json'")
    return [r for r in results if isinstance(r, dict)]


def _finish(report: Report, args: argparse.Namespace, mode: OutputMode, exit_code: int) -> int:
    if args.print_stats or mode == OutputMode.EXAMINE:
        from .stats import print_stats

        print_stats(report)
    if args.report:
        fmt = args.report_format or Path(args.report).suffix.lstrip(".").lower()
        if fmt == "markdown":
            fmt = "md"
        if fmt not in FORMATS:
            raise UsageError(f"cannot tell the report format from {args.report!r}; pass --report-format")
        if args.validation:
            report.validation = _load_validation(Path(args.validation))
        Path(args.report).write_text(render(report, fmt), encoding="utf-8")
    return exit_code
