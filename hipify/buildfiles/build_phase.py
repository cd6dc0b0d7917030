"""The build-file phase of a run: what each build file's translation is told about the project.

Build files (``hipify.buildfiles``) are found with the sources, left out of the project scan (they are not
C++), and translated by their own translators in the same workers, with the same outputs. What a build file
needs from the sources comes from the project model (``project.graph.build_file_facts``) as a :class:`BuildContext`
in its ``ProjectFacts``
(so the result cache and the manifest key on it): the API families its sources use (from the scans), the
sources renamed by ``--rename-extensions``, the GPU targets (``--offload-arch``), ``--roc``, the families
the sources keep with their HIP names, and the C/C++ sources whose translation units include the HIP runtime
(a host compiler needs to be told where HIP is). Data flows one way: the scans know nothing of make, and a build file's
translation never reads a source.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from ..model import ProjectFacts
from ..options import Options
from . import BuildContext
from .dispatch import kind_of


def default_context(options: Options) -> BuildContext:
    """A build file translated alone (the Python API, ``-o``): what the options say, no project facts."""
    return BuildContext(offload_arch=options.offload_arch, roc=options.roc)


def is_build_file(path: str | os.PathLike[str]) -> bool:
    return kind_of(str(path)) is not None


def split_build_files(paths: Iterable[str]) -> tuple[list[str], list[str]]:
    """(sources, build files) of ``paths``, each in the order given."""
    sources: list[str] = []
    builds: list[str] = []
    for path in paths:
        (builds if is_build_file(path) else sources).append(path)
    return sources, builds


def build_facts(
    build_paths: Sequence[str],
    source_families: Mapping[str, frozenset[str]],
    renamed: Sequence[tuple[str, str]],
    hip_families: Sequence[tuple[str, str]],
    options: Options,
    hip_sources: Sequence[str] = (),
    hip_compiled_sources: Sequence[str] = (),
) -> dict[str, ProjectFacts]:
    """Each build file's facts. ``source_families``: each source's path -> the families it uses; a build file
    is told the families of the sources in its directory and below (all of them when none lies there), and
    the ``hip_sources`` (absolute paths) below its directory, relative to it."""
    everything = frozenset().union(*source_families.values()) if source_families else frozenset()
    directories = {path: os.path.dirname(os.path.abspath(path)) + os.sep for path in build_paths}
    # The families of the sources under each build file's directory: a source lies under a directory when the
    # directory (ending in a separator) is a prefix of its path, so each source adds its families to the
    # prefixes of its path that end at a separator and are a build file's directory.
    below: dict[str, set[str]] = {directory: set() for directory in directories.values()}
    has_sources: set[str] = set()  # the directories with a source under them (whose families may be none)
    for path, families in source_families.items():
        source = os.path.abspath(path)
        at = source.find(os.sep)
        while at >= 0:
            under = below.get(source[: at + 1])
            if under is not None:
                under.update(families)
                has_sources.add(source[: at + 1])
            at = source.find(os.sep, at + 1)
    keep_hip = tuple(sorted({family for family, _ in hip_families}))
    renamed_sorted = tuple(sorted(renamed))
    hip_sorted, compiled_sorted = sorted(hip_sources), sorted(hip_compiled_sources)
    facts = {}
    for path in build_paths:
        directory = directories[path]
        families = frozenset(below[directory]) if directory in has_sources else everything
        context = replace(
            default_context(options),
            families=tuple(sorted(families)),
            renamed=renamed_sorted,
            hip_families=keep_hip if options.roc else (),
            hip_sources=_below(hip_sorted, directory),
            hip_compiled_sources=_below(compiled_sorted, directory),
        )
        facts[path] = ProjectFacts(build=context)
    return facts


def _below(sources: Sequence[str], directory: str) -> tuple[str, ...]:
    """The ``sources`` (absolute paths, sorted) under ``directory``, relative to it. Those starting with
    ``directory`` are one run of the sorted list: found by bisection, not by a test of every source per build file."""
    first = bisect.bisect_left(sources, directory)
    last = bisect.bisect_left(sources, directory + _LAST_CHAR, first)
    under = (s for s in sources[first:last] if s.startswith(directory))
    return tuple(sorted(os.path.relpath(s, directory).replace(os.sep, "/") for s in under))


_LAST_CHAR = chr(0x10FFFF)  # sorts after every character a path can hold
