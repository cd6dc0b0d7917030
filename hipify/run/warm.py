"""Warm start and selection: the manifest of the last run with these settings, and the files git says changed."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from ..knowledge.table import shipped_digest
from ..project.graph import ProjectModel
from ..sources.discover import Found
from ..sources.vcs import VcsError, changed_files
from ..translation.engines import engine_environment
from .manifest import SelectionScans, WarmStart, run_key
from .request import RunConfig, UsageError


def _run_key_parts(config: RunConfig) -> Iterator[str]:
    """Everything besides the files that decides a run's output (what its manifest is keyed by)."""
    from ..compat import load_catalog

    options = config.options
    yield shipped_digest() + load_catalog().digest
    yield options.cache_key()
    yield engine_environment(options)
    yield os.getcwd()  # the files' names in messages are relative to it
    yield repr((config.paths, config.mode.value, os.path.abspath(config.output) if config.output else ""))
    yield repr((os.path.abspath(config.out_dir) if config.out_dir else "", config.backup_suffix, config.renames))
    yield repr((config.copy_other_files, config.extensions, config.exclude, config.use_gitignore, config.build_files))
    yield repr((config.encoding, config.max_size))


def _changed(config: RunConfig, found: list[Found], model: ProjectModel) -> list[Found]:
    """The files git says changed, and the files that include them (their translation can depend on them)."""
    try:
        changed = changed_files(config.paths, config.changed_since, config.staged)
    except VcsError as exc:
        raise UsageError(str(exc)) from None
    including = model.including(changed)
    return [f for f in found if model.key_of(str(f.path)) in including]


def _warm_start(config: RunConfig) -> WarmStart | None:
    """The last manifest of a run with these settings; None where a run cannot use one (no cache, or a selection
    of files by git)."""
    if not config.cache_dir or not config.options.use_cache or config.changed_since or config.staged:
        return None
    return WarmStart.open(Path(config.cache_dir), run_key(_run_key_parts(config)), config.options.include_dirs)


def _selection_scans(config: RunConfig) -> SelectionScans | None:
    """The scans the last run with these settings kept, for a run that selects its files by git (None for any
    other run, or without a cache)."""
    if not config.cache_dir or not config.options.use_cache or not (config.changed_since or config.staged):
        return None
    return SelectionScans(Path(config.cache_dir), run_key(_run_key_parts(config)))
