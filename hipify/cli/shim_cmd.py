"""``hipify-py shim PATH... -o HEADER | --include-dir DIR [--check]``: the command line of the single-source header."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence

from ..options import Options
from ..reports.report_render import FORMATS
from ..shim.command import EXIT_ERROR, ShimRequest, run_shim
from ..translation.engines import ENGINE_NAMES
from .findings_options import add_findings_options
from .release import ConfigError, add_rocm_option, resolve_rocm

DESCRIPTION = """\
Write the header a single-source project compiles its CUDA code for AMD GPUs with: the HIP headers standing for
the CUDA headers it includes, the CUDA names it uses defined in terms of HIP (renames, wrappers where HIP takes the
arguments in another form, compatibility helpers), from the project's own translation. What no header can stand
for (APIs HIP lacks, inline PTX, code the translation has to change) is listed at file:line."""

EPILOG = """\
examples:
  hipify-py shim src -o include/hip_shim.h          one header: #include it (or -include it) when building for AMD
  hipify-py shim src --include-dir build/hip-include  headers named like CUDA's: hipcc -I build/hip-include, no change
  hipify-py shim src -o include/hip_shim.h --check  CI / pre-commit: exit 1 when the sources use a name it lacks

exit codes: 0 written (or up to date); 1 --check: out of date; 2 usage error or unreadable input
"""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hipify-py shim",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="the project's CUDA sources: files or directories")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("-o", "--output", metavar="HEADER", help="write one header")
    where.add_argument(
        "--include-dir", metavar="DIR", help="write a folder of headers named like CUDA's (cuda_runtime.h, ...)"
    )
    where.add_argument(
        "--replace",
        metavar="HEADER",
        help="write the header over the project's own vendor header (vendors/hip.h), keeping its own lines",
    )
    p.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 when the header is not what the sources need"
    )
    p.add_argument("--report", metavar="FILE", help="write the findings as a porting report")
    p.add_argument("--report-format", choices=FORMATS, help="report format (default: from FILE's suffix)")
    add_rocm_option(p)
    p.add_argument("--experimental", action="store_true", help="also cover APIs HIP marks experimental")
    p.add_argument("--engine", choices=ENGINE_NAMES, default="auto", help="engine the project is planned with")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR", help="project include folder")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=V]", help="macro for the parser")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="leave matching paths out")
    p.add_argument("--no-gitignore", action="store_true", help="read files .gitignore excludes too")
    add_findings_options(p, "one per place")
    return p


def shim_main(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(list(argv))
    try:
        rocm = resolve_rocm(args.rocm, args.paths)
    except (ValueError, ConfigError) as exc:
        parser.error(str(exc))
        return EXIT_ERROR
    options = Options(
        engine=args.engine,
        experimental=args.experimental,
        rocm_version=rocm,
        defines=tuple(args.defines),
        include_dirs=tuple(args.include_dirs),
    )
    request = ShimRequest(
        paths=tuple(args.paths),
        options=options,
        output=args.output or "",
        include_dir=args.include_dir or "",
        replace=args.replace or "",
        check=args.check,
        command=shlex.join(["hipify-py", "shim", *(a for a in argv if a != "--check")]),
        report=args.report or "",
        report_format=args.report_format or "",
        exclude=tuple(args.exclude),
        use_gitignore=not args.no_gitignore,
        quiet=args.quiet,
        verbose=args.verbose,
        max_findings=args.max_findings,
    )
    return run_shim(request)
