"""What a row's translation is in each ROCm release the table was generated for (``Row.by_rocm``): the name written
and the macros defined for it. The planner notes uses that another release writes otherwise (HPY022), and the report
takes the oldest release writing the same as the least the port needs (with the targets' since-values)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from ..knowledge.table import Row, release_for, release_version
from ..options import Options
from .index import macro_needed, required_macros
from .status import decide


@dataclass(frozen=True)
class Written:
    """What the translation writes for a use of a row: ``target`` ('' when it leaves the CUDA name, ``reason`` saying
    why) and the macros it defines before the HIP headers for it."""

    target: str
    macros: tuple[str, ...] = ()
    reason: str = ""

    def describe(self) -> str:
        if not self.target:
            return f"left as written ({self.reason})" if self.reason else "left as written"
        needs = f" with {', '.join(self.macros)} defined" if self.macros else ""
        return f"{self.target}{needs}"


def version_of(release: str) -> tuple[int, int]:
    """'7.2' -> (7, 2): a release as ``Options.rocm_version`` holds one."""
    parts = release_version(release)
    return (parts[0], parts[1] if len(parts) > 1 else 0)


@lru_cache(maxsize=1 << 14)
def written_at(
    row: Row, release: str, options: Options, releases: tuple[tuple[int, ...], ...], roc: bool | None = None
) -> Written:
    """What a translation for ``release`` writes for ``row`` (as that release's headers have it). Kept per
    process: every argument is immutable, and a row's uses repeat in every file that calls it."""
    rocm = version_of(release)
    decision = decide(row.at(release), replace(options, rocm_version=rocm), releases, roc)
    if not decision.target:
        return Written("", reason=decision.code)
    macros = tuple(m for m in required_macros(row.at(release), decision.roc) if macro_needed(m, rocm))
    return Written(decision.target, macros)


def others_writing_otherwise(
    row: Row,
    options: Options,
    target_releases: tuple[str, ...],
    releases: tuple[tuple[int, ...], ...],
    roc: bool | None = None,
) -> dict[str, Written]:
    """The releases of ``target_releases`` other than the one ``options`` targets whose translation of ``row``
    differs from the target's, with what they write."""
    here = release_for(options.rocm_version, target_releases)
    mine = written_at(row, here, options, releases, roc)
    out: dict[str, Written] = {}
    for release in target_releases:
        if release != here:
            theirs = written_at(row, release, options, releases, roc)
            if theirs != mine:
                out[release] = theirs
    return out


def least_release_needed(
    row: Row,
    options: Options,
    target_releases: tuple[str, ...],
    releases: tuple[tuple[int, ...], ...],
    roc: bool | None = None,
) -> str:
    """The oldest release of ``target_releases`` from which on every one, up to the target's, translates ``row`` as
    the target does, when an older one translates it otherwise: a port written for the target needs at least that
    release. '' when every older one writes the same (its since-values say what it needs)."""
    here = release_for(options.rocm_version, target_releases)
    mine = written_at(row, here, options, releases, roc)
    older = [r for r in target_releases if version_of(r) < version_of(here)]
    oldest = here
    for release in reversed(older):
        if written_at(row, release, options, releases, roc) != mine:
            return oldest
        oldest = release
    return ""
