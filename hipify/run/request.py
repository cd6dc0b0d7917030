"""What a run is asked to do (RunConfig, decided by the command line) and the checks made before any work."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..machinery.supervise import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_S
from ..options import Options
from ..output.emit import OutputMode
from ..reports.findings import DEFAULT_MAX_FINDINGS
from ..reports.report_render import FORMATS
from ..sources.discover import DEFAULT_EXTENSIONS
from ..sources.fileio import DEFAULT_MAX_SIZE

STDIN = "-"


# Modes whose outputs are other files than the inputs: a warm run checks they are still what was written.
_MIRRORED = (OutputMode.OUT_DIR, OutputMode.OUTPUT_FILE)


class UsageError(Exception):
    """The command line asks for something impossible; exit code 2 with the message."""


@dataclass(frozen=True)
class RunConfig:
    """Everything a run needs, decided by the command line."""

    paths: tuple[str, ...]
    options: Options
    mode: OutputMode = OutputMode.STDOUT
    output: str = ""  # -o FILE
    out_dir: str = ""  # --out-dir DIR
    backup_suffix: str = ".prehip"  # --in-place backups; "" = none
    renames: tuple[tuple[str, str], ...] = ()  # (.old, .new) suffixes for --rename-extensions; () = keep names
    copy_other_files: bool = False
    build_files: bool = True  # translate the build files found with the sources (Makefile, CMakeLists.txt)
    print_stats: bool = False
    report: str = ""
    report_format: str = ""
    validation: str = ""
    quiet: bool = False
    verbose: bool = False  # notes too, and no cap on findings
    max_findings: int = DEFAULT_MAX_FINDINGS  # findings printed at most (0 = all)
    command: tuple[str, ...] = ()  # the command line's arguments (the fix command of --check repeats them)
    progress: bool = True
    jobs: int = 1
    exclude: tuple[str, ...] = ()
    use_gitignore: bool = True
    changed_since: str = ""  # git revision: translate only files changed since (and the files including them)
    staged: bool = False  # translate only files staged in git (and the files including them)
    config_file: str = ""  # the configuration the values came from, as shown
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS
    encoding: str = "utf-8"
    max_size: int = DEFAULT_MAX_SIZE
    cache_dir: str = ""  # "" = no cache
    timeout: float = DEFAULT_TIMEOUT_S  # seconds per file (0 = none)
    max_memory: int = DEFAULT_MEMORY_MB  # MB per worker process (0 = none)
    stdin: bytes | None = field(default=None, repr=False)  # the input when paths == ("-",); read by the CLI


def _check(config: RunConfig) -> None:
    if not config.paths:
        raise UsageError("no input: give files or directories, or '-' for stdin")
    if config.jobs < 0:
        raise UsageError("-j must be >= 0")
    if config.timeout < 0 or config.max_memory < 0:
        raise UsageError("--timeout and --max-memory must be >= 0 (0: no limit)")
    if os.sep in config.backup_suffix or config.backup_suffix == ".":
        raise UsageError(f"--backup-suffix {config.backup_suffix!r} is not a file name suffix")
    if (config.renames or config.copy_other_files) and config.mode != OutputMode.OUT_DIR:
        raise UsageError("--rename-extensions and --copy-other-files need --out-dir")
    if config.changed_since and config.staged:
        raise UsageError("--changed-since and --staged cannot be combined")
    if STDIN in config.paths and config.paths != (STDIN,):
        raise UsageError("'-' (stdin) cannot be combined with other paths")
    if config.paths == (STDIN,) and config.mode in (OutputMode.IN_PLACE, OutputMode.OUT_DIR):
        raise UsageError(f"stdin cannot be used with --{config.mode.value}")
    if config.report:
        _report_format(config)  # fail before translating anything


def _report_format(config: RunConfig) -> str:
    fmt = config.report_format or Path(config.report).suffix.lstrip(".").lower()
    fmt = "md" if fmt == "markdown" else fmt
    if fmt not in FORMATS:
        raise UsageError(f"cannot tell the report format from {config.report!r}; pass --report-format")
    return fmt
