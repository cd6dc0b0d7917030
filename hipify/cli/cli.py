"""The hipify-py command line. Only this module reads sys.argv."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from ..machinery.cache import default_cache_dir
from ..machinery.supervise import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_S
from ..options import DEFAULT_OFFLOAD_ARCH, Options, parse_offload_arch, parse_rocm_version
from ..output.emit import OutputMode, message
from ..reports.report_render import FORMATS
from ..run.request import STDIN, RunConfig, UsageError
from ..run.run import run
from ..sources.discover import DEFAULT_EXTENSIONS
from ..sources.fileio import DEFAULT_MAX_SIZE
from ..translation.engines import ENGINE_NAMES
from ..version import __version__
from .config import ConfigError, find_config, load_config
from .findings_options import add_findings_options
from .release import DEFAULT_TEXT as ROCM_DEFAULT_TEXT
from .release import HELP as ROCM_HELP

EXIT_OK, EXIT_FOUND, EXIT_ERROR, EXIT_INTERRUPTED = 0, 1, 2, 130
SUBCOMMANDS = ("tables", "explain", "validate", "shim")
DEFAULT_RENAMES = {".cu": ".hip"}

EPILOG = """\
subcommands:
  hipify-py tables --format json|csv|md [--api NAME]   dump the mapping table
  hipify-py explain NAME                                one CUDA name in words
  hipify-py validate [PATH...]                          compile translations with hipcc
  hipify-py shim PATH... -o HEADER | --include-dir DIR  single-source header (CUDA names defined as HIP's)

exit codes:
  0  nothing to do, or everything was written
  1  --check or --diff found files that would change (or, for --check, untranslated CUDA APIs)
  2  usage error, an input that could not be read or translated, an output that could not be
     written, or internal error (the run still goes on with the other files)
  130 interrupted (Ctrl-C); files already written are complete, the others unchanged
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
    mode.add_argument(
        "--out-dir",
        "--o-dir",
        metavar="DIR",
        help="mirror the input tree into DIR: sources translated, every other file copied (see --sources-only)",
    )
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
        "--sources-only",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="with --out-dir: write only the translated sources, no build files or data",
    )
    out.add_argument(
        "--copy-other-files",
        action="store_true",
        help="accepted for compatibility: --out-dir copies the other files by default",
    )
    out.add_argument("--print-stats", action="store_true", help="print conversion statistics to stderr")
    out.add_argument("--report", metavar="FILE", help="write a porting report")
    out.add_argument("--report-format", choices=FORMATS, help="report format (default: from FILE's suffix)")
    out.add_argument(
        "--validation", metavar="JSON", help="include results of 'hipify-py validate --json JSON' in the report"
    )
    add_findings_options(out, "one per root cause")
    out.add_argument("--no-progress", action="store_true", help="no progress bar")

    tr = p.add_argument_group("translation")
    tr.add_argument(
        "--engine",
        choices=ENGINE_NAMES,
        default="auto",
        help="clang (libclang, AST-aware), regex (lexer-aware text), auto (clang, else regex)",
    )
    flag = argparse.BooleanOptionalAction  # --x / --no-x: the command line can undo a configuration's value
    tr.add_argument("--roc", action=flag, default=False, help="prefer rocBLAS/rocSPARSE/rocRAND/... names")
    tr.add_argument("--miopen", action=flag, default=False, help="translate cuDNN to MIOpen")
    tr.add_argument("--experimental", action=flag, default=False, help="also translate APIs HIP marks experimental")
    ks = tr.add_mutually_exclusive_group()
    ks.add_argument(
        "--hip-kernel-execution-syntax",
        action=flag,
        default=False,
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
        action=flag,
        default=False,
        help="translate as much as possible: inactive #if branches too, overriding the skip flags",
    )
    tr.add_argument(
        "--skip-excluded-preprocessor-conditional-blocks",
        action=flag,
        default=False,
        help="leave code in inactive #if branches untranslated",
    )
    tr.add_argument(
        "--default-preprocessor", action="store_true", help="same as --skip-excluded-preprocessor-conditional-blocks"
    )
    tr.add_argument(
        "--rocm",
        default=ROCM_DEFAULT_TEXT,
        metavar="X.Y",
        help=ROCM_HELP,  # the same for every subcommand that depends on the release (release.py)
    )
    tr.add_argument(
        "--offload-arch",
        default=",".join(DEFAULT_OFFLOAD_ARCH),
        metavar="GFX[,GFX]",
        help=f"AMD GPU targets of the translated build files (default {','.join(DEFAULT_OFFLOAD_ARCH)}; "
        "make: HIP_ARCH overrides it when building)",
    )
    tr.add_argument(
        "--build-files",
        action=flag,
        default=True,
        help="translate the build files found with the sources: Makefile, *.mk, CMakeLists.txt, *.cmake "
        "(default; --no-build-files copies them as they are)",
    )
    tr.add_argument(
        "--runtime-include",
        action=flag,
        default=True,
        help="insert #include <hip/hip_runtime.h> where a file needs it (--no-runtime-include: never)",
    )
    tr.add_argument(
        "--compat-header",
        action=flag,
        default=True,
        help="provide small CUDA features ROCm lacks in hipify_compat.h (--no-compat-header: report their uses)",
    )
    tr.add_argument(
        "--warn-unknown", action=flag, default=True, help="warn about CUDA-like names the table does not know"
    )
    tr.add_argument(
        "--project-name",
        dest="project_names",
        action="append",
        default=[],
        metavar="NAME",
        help="a name of the project's own that looks like CUDA: never renamed or reported (repeatable)",
    )

    cl = p.add_argument_group("parser (clang engine; -D also steers the regex engine's #if handling)")
    cl.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=V]")
    cl.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR")
    cl.add_argument("-p", dest="build_dir", metavar="BUILD_DIR", help="directory with compile_commands.json")
    cl.add_argument(
        "--clang-parse",
        choices=("auto", "always"),
        default="auto",
        help="auto: parse a file with libclang only where the AST can change its translation (default); "
        "always: parse every file (slower; also reports each file's parse errors)",
    )
    cl.add_argument(
        "--cuda-path",
        metavar="DIR",
        default="",
        help="CUDA toolkit to parse against ('none': parse without CUDA headers)",
    )

    run = p.add_argument_group("run")
    run.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=0,
        metavar="N",
        help="worker processes (default 0: the cores this process may use)",
    )
    run.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="skip matching paths")
    run.add_argument("--gitignore", action=flag, default=True, help="honour .gitignore files (default)")
    run.add_argument(
        "--changed-since", metavar="REV", help="translate only files git says changed since REV (and their includers)"
    )
    run.add_argument("--staged", action="store_true", help="translate only files staged in git (and their includers)")
    run.add_argument("--config", metavar="FILE", help="configuration file (default: found from the inputs upward)")
    run.add_argument("--no-config", action="store_true", help="ignore configuration files")
    run.add_argument(
        "--extensions",
        metavar="LIST",
        help=f"comma-separated source extensions (default {','.join(DEFAULT_EXTENSIONS)})",
    )
    run.add_argument("--encoding", default="utf-8", help="encoding of input files (default utf-8)")
    run.add_argument("--max-size", type=int, default=DEFAULT_MAX_SIZE, metavar="BYTES")
    run.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT_S,
        metavar="S",
        help=f"seconds one file's translation may take (default {DEFAULT_TIMEOUT_S:g}; 0 = no limit)",
    )
    run.add_argument(
        "--max-memory",
        type=int,
        default=DEFAULT_MEMORY_MB,
        metavar="MB",
        help=f"memory a worker process may allocate beyond its start (default {DEFAULT_MEMORY_MB}; 0 = no limit)",
    )
    run.add_argument("--no-cache", action="store_true", help="do not read or write the result cache")
    run.add_argument("--cache-dir", metavar="DIR", help=f"result cache (default {default_cache_dir()})")
    return p


def options_from_args(args: argparse.Namespace, clang_args: Sequence[str] = ()) -> Options:
    try:
        rocm = parse_rocm_version(args.rocm)
        offload_arch = parse_offload_arch(args.offload_arch)
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
        insert_runtime_include=args.runtime_include,
        compat_header=args.compat_header,
        warn_unknown=args.warn_unknown,
        rename_extensions=args.rename_extensions,
        offload_arch=offload_arch,
        defines=tuple(args.defines),
        include_dirs=tuple(args.include_dirs),
        clang_args=tuple(clang_args),
        build_dir=args.build_dir or "",
        cuda_path=args.cuda_path,
        clang_parse=args.clang_parse,
        use_cache=not args.no_cache,
        project_names=tuple(sorted(set(args.project_names))),
        mappings=tuple(getattr(args, "mappings", ())),
    )


def _mode(args: argparse.Namespace) -> OutputMode:
    for flag, mode in (
        (args.output, OutputMode.OUTPUT_FILE),
        (args.out_dir, OutputMode.OUT_DIR),
        (args.in_place, OutputMode.IN_PLACE),
        (args.diff, OutputMode.DIFF),
        (args.check, OutputMode.CHECK),
        (args.examine, OutputMode.EXAMINE),
    ):
        if flag:
            return mode
    return OutputMode.STDOUT


def _renames(args: argparse.Namespace) -> tuple[tuple[str, str], ...]:
    if not args.rename_extensions:
        return ()
    renames = dict(DEFAULT_RENAMES)
    for item in args.rename:
        old, sep, new = item.partition("=")
        if not sep or not old.startswith(".") or not new.startswith("."):
            raise UsageError(f"--rename expects .OLD=.NEW, got {item!r}")
        renames[old] = new
    return tuple(renames.items())


def available_cores() -> int:
    """The cores this process may run on (its affinity, which containers and taskset restrict)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def config_from_args(
    args: argparse.Namespace, clang_args: Sequence[str] = (), command: Sequence[str] = (), config_file: str = ""
) -> RunConfig:
    if args.in_place and not args.no_backup and not args.backup_suffix:
        raise UsageError("--backup-suffix '' names the file itself; pass --no-backup to keep no backup")
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS
    if args.extensions:
        extensions = tuple(e if e.startswith(".") else f".{e}" for e in args.extensions.split(",") if e)
    cache_dir = "" if args.no_cache else str(Path(args.cache_dir) if args.cache_dir else default_cache_dir())
    paths = tuple(args.paths)
    return RunConfig(
        paths=paths,
        options=options_from_args(args, clang_args),
        mode=_mode(args),
        output=args.output or "",
        out_dir=args.out_dir or "",
        backup_suffix="" if args.no_backup else args.backup_suffix,
        renames=_renames(args),
        copy_other_files=(bool(args.out_dir) and not args.sources_only) or args.copy_other_files,
        build_files=args.build_files and not (args.out_dir and args.sources_only),
        print_stats=args.print_stats,
        report=args.report or "",
        report_format=args.report_format or "",
        validation=args.validation or "",
        quiet=args.quiet,
        verbose=args.verbose,
        max_findings=args.max_findings,
        command=tuple(command),
        progress=not args.no_progress,
        jobs=args.jobs or available_cores(),
        config_file=_shown(config_file) if config_file else "",
        exclude=tuple(args.exclude),
        use_gitignore=args.gitignore,
        changed_since=args.changed_since or "",
        staged=args.staged,
        extensions=extensions,
        encoding=args.encoding,
        max_size=args.max_size,
        cache_dir=cache_dir,
        timeout=args.timeout,
        max_memory=args.max_memory,
        stdin=sys.stdin.buffer.read() if paths == (STDIN,) else None,
    )


def console_main() -> NoReturn:
    """The ``hipify-py`` command (and ``python -m hipify``): :func:`main`, then the process ends at once.

    Tearing down the interpreter would free the mapping table, its index and the project model object by object
    (~50 ms, a twentieth of a small tree's run) for a process that is ending: once the run is over (its workers
    ended, every file written and closed, its threads joined), the output streams are flushed and the process
    exits without that. A program calling :func:`main` itself goes on as usual."""
    code = main()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        return _subcommand(argv[0], argv[1:])
    command = tuple(argv)
    clang_args: list[str] = []
    if "--" in argv:
        split = argv.index("--")
        argv, clang_args = argv[:split], argv[split + 1 :]
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        config_file = "" if args.no_config else (args.config or str(find_config(args.paths) or ""))
        if config_file:  # its values become the defaults: what the command line says wins
            parser.set_defaults(**load_config(Path(config_file)).defaults)
            args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed the problem
        return EXIT_OK if exc.code == 0 else EXIT_ERROR
    except ConfigError as exc:
        message(f"hipify-py: error: {exc}")
        return EXIT_ERROR
    try:
        return run(config_from_args(args, clang_args, command, config_file))
    except UsageError as exc:
        message(f"hipify-py: error: {exc}")
        return EXIT_ERROR
    except KeyboardInterrupt:
        message("hipify-py: interrupted; files already written are complete, the rest are unchanged")
        return EXIT_INTERRUPTED
    except Exception as exc:  # an internal error still gets exit code 2 and one clear line
        message(f"hipify-py: internal error: {type(exc).__name__}: {exc}")
        return EXIT_ERROR


def _shown(path: str) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return path


def _subcommand(name: str, argv: list[str]) -> int:
    if name == "validate":
        from ..validate import validate_main

        return validate_main(argv)
    if name == "shim":
        from .shim_cmd import shim_main

        return shim_main(argv)
    from .tables_cmd import explain_main, tables_main

    return tables_main(argv) if name == "tables" else explain_main(argv)
