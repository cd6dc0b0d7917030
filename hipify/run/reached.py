"""Headers the inputs include that the walk did not take: a project's own extension for its headers (``.hu``,
``.cuinc``, ``.tcc``) is no reason to leave one out. A ``.cu`` file's ``#include <lib/cuda_utils.hu>`` makes that
file part of the sources: left untranslated, it keeps ``#include <cuda.h>`` and every file including it stops there.

Only files of the directories the run walks, not excluded there (``--exclude``, ``.gitignore``), are taken: a
header reached through ``-I`` outside them is not the run's to write."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace

from ..buildfiles.build_phase import is_build_file
from ..compat import HEADER_NAME
from ..project.graph import ProjectModel
from ..sources.discover import FileStat, Found


def reached_headers(found: Sequence[Found], others: Sequence[Found], model: ProjectModel) -> list[Found]:
    """Of ``others`` (the walked directories' files left out for their extension, :func:`discover`), those
    ``model`` scanned because an input includes them, with what ``stat`` says of them now."""
    inputs = {f.real for f in found}
    candidates = {
        key
        for key, scan in model.scans.items()
        if key not in model.translated and key not in inputs and scan.readable and os.path.basename(key) != HEADER_NAME
    }
    reached = []
    for item in others:
        if item.real in candidates and not is_build_file(item.path):
            try:
                reached.append(replace(item, stat=FileStat.of(os.stat(item.path))))
            except OSError:  # gone since: its includers' translations say so
                continue
    return reached
