"""Where the compatibility header goes, what an earlier run wrote there, and how a file includes it."""

from __future__ import annotations

import os
from pathlib import Path

from ..compat import HEADER_NAME, is_generated
from ..output.emit import OutputMode
from ..sources.discover import Found
from ..sources.fileio import SourceError, read_regular
from .request import RunConfig


def _generated_compat(path: Path) -> str | None:
    """The text of a compatibility header hipify-py wrote at ``path`` (None for any other file)."""
    try:
        text = read_regular(path, 1 << 20).decode("utf-8")
    except (SourceError, UnicodeDecodeError):
        return None
    return text if is_generated(text) else None


def _compat_header_path(config: RunConfig, found: list[Found], out_dir: Path | None, dest_root: Path) -> Path:
    """Where the compatibility header goes: the root of the output tree (or next to -o's file)."""
    if config.mode == OutputMode.OUTPUT_FILE:
        return Path(config.output).resolve().parent / HEADER_NAME
    return (out_dir if out_dir is not None else dest_root) / HEADER_NAME


def _relative_include(header: Path, output: Path) -> str:
    return Path(os.path.relpath(header, output.parent)).as_posix()
