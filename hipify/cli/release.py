"""The one ``--rocm`` of every subcommand whose output depends on the ROCm release (translation, ``shim``,
``tables``, ``explain``): the same option, the same default (the newest release the table was generated for), and
the configuration file's ``rocm`` honoured where the command line gives none."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from ..options import DEFAULT_ROCM, parse_rocm_version
from .config import ConfigError, find_config, load_config

DEFAULT_TEXT = ".".join(map(str, DEFAULT_ROCM))
HELP = (
    f"target ROCm version (default {DEFAULT_TEXT}, the newest the table was generated for: what people porting now "
    "install; or the configuration file's rocm); the table holds each release's targets, so --rocm 6.4 gives what "
    "compiles on 6.4"
)


def add_rocm_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--rocm X.Y``, left None when not given (:func:`resolve_rocm` fills it in)."""
    parser.add_argument("--rocm", default=None, metavar="X.Y", help=HELP)


def resolve_rocm(given: str | None, paths: Sequence[str] = (), *, no_config: bool = False) -> tuple[int, int]:
    """The release a subcommand targets: the command line's, else the configuration file's that applies to
    ``paths`` (the current directory's without paths), else the default. Raises ValueError (a bad version) or
    ConfigError (a bad configuration file)."""
    if given is not None:
        return parse_rocm_version(given)
    if not no_config:
        config = find_config(list(paths) or ["."])
        if config is not None:
            value = load_config(Path(config)).defaults.get("rocm")
            if isinstance(value, str):
                return parse_rocm_version(value)
    return DEFAULT_ROCM


__all__ = ["DEFAULT_TEXT", "HELP", "ConfigError", "add_rocm_option", "resolve_rocm"]
