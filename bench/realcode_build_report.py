"""Tables of whole-program builds: HeCBench's share of translated benchmarks that build where the
hand-written port builds, the library samples' share that configure and build where their sources compile
and the HIP library exists, and every failing program with its first error, grouped by cause."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from realcode_build import BuildResult
from realcode_compile import ProgramResult
from realcode_report import _percent, _short, error_class, located, shared_quotes

HECBENCH_TARGET = 0.95
SAMPLES_TARGET = 0.85


@dataclass(frozen=True)
class BuildShare:
    label: str
    programs: int
    built: int
    eligible: int  # the denominator: ports that build (HeCBench); sources compile and library exists (samples)
    built_eligible: int
    target: float

    @property
    def share(self) -> float | None:
        return self.built_eligible / self.eligible if self.eligible else None


def _mine(results: list[BuildResult], corpus: str, kind: str) -> dict[str, BuildResult]:
    return {r.name: r for r in results if r.corpus == corpus and r.kind == kind}


def hecbench_share(results: list[BuildResult]) -> BuildShare:
    return ported_share(results, "hecbench", "HeCBench: translated builds where the port builds")


def ported_share(results: list[BuildResult], corpus: str, label: str) -> BuildShare:
    """The translated programs of ``corpus`` that build, of those whose hand-written port builds."""
    translated = _mine(results, corpus, "translated")
    ported_ok = {n for n, r in _mine(results, corpus, "ported").items() if r.built}
    eligible = [n for n in translated if n in ported_ok]
    return BuildShare(
        label,
        len(translated),
        sum(r.built for r in translated.values()),
        len(eligible),
        sum(translated[n].built for n in eligible),
        HECBENCH_TARGET,
    )


def sample_eligibility(
    build: BuildResult, compiled: dict[str, list[ProgramResult]], library_exists: Callable[[str], bool]
) -> str:
    """ "" when the sample counts toward the share, else why not: its sources do not all compile (per-file
    compile), or HIP has no library for it in the environment."""
    group = build.name.split("/", 1)[0]
    if not library_exists(group):
        return f"no HIP library for {group} in the environment"
    programs = compiled.get(build.name)
    if programs is None:
        return "sources not compiled in this run"
    if not all(p.ok for p in programs):
        return "its sources do not compile"
    return ""


def samples_share(
    results: list[BuildResult], compiled: dict[str, list[ProgramResult]], library_exists: Callable[[str], bool]
) -> tuple[BuildShare, dict[str, str]]:
    translated = _mine(results, "samples", "translated")
    why = {n: sample_eligibility(r, compiled, library_exists) for n, r in translated.items()}
    eligible = [n for n, reason in why.items() if not reason]
    share = BuildShare(
        "CUDA Library Samples: configure and build where the sources compile and the HIP library exists",
        len(translated),
        sum(r.built for r in translated.values()),
        len(eligible),
        sum(translated[n].built for n in eligible),
        SAMPLES_TARGET,
    )
    return share, why


def share_markdown(shares: list[BuildShare]) -> list[str]:
    out = [
        "| measure | programs | built | counted | built of those counted | share | target |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for s in shares:
        out.append(
            f"| {s.label} | {s.programs} | {s.built} | {s.eligible} | {s.built_eligible} | {_percent(s.share)} "
            f"| ≥ {100 * s.target:.0f}% |"
        )
    return out


def stages_markdown(results: list[BuildResult], corpus: str) -> list[str]:
    rows = []
    for kind in ("translated", "ported"):
        mine = list(_mine(results, corpus, kind).values())
        if not mine:
            continue
        configured = [r for r in mine if r.configured is not None]
        conf = f"{sum(bool(r.configured) for r in configured)}" if configured else "-"
        rows.append(
            f"| {kind} | {len(mine)} | {conf} | {sum(r.compiled for r in mine)} | {sum(r.linked for r in mine)} |"
        )
    return ["| programs | built with | configured | compiled | linked |", "|---|---:|---:|---:|---:|", *rows]


def _error_text(r: BuildResult) -> str:
    return f"{r.stage}: {located(r.error)}" if r.error else r.stage


def failures_markdown(results: list[BuildResult], corpus: str, kind: str, note: Callable[[str], str]) -> list[str]:
    failed = sorted((r for r in _mine(results, corpus, kind).values() if not r.built), key=lambda r: r.name)
    if not failed:
        return ["None."]
    out = ["| program | | first error |", "|---|---|---|"]
    return out + [f"| {r.name} | {note(r.name)} | {_short(_error_text(r))} |" for r in failed]


def groups_markdown(
    results: list[BuildResult], corpus: str, kind: str, counted: set[str], examples: int = 3
) -> list[str]:
    failed = [r for r in _mine(results, corpus, kind).values() if not r.built and r.error]
    shared = shared_quotes(failed)  # type: ignore[arg-type]  # reads .name and .error only
    groups: dict[str, list[BuildResult]] = defaultdict(list)
    for r in failed:
        assert r.error is not None
        groups[f"{r.stage}: {error_class(r.error, shared)}"].append(r)
    if not groups:
        return ["None."]
    out = ["| programs | of those counted | first error (class) | examples |", "|---:|---:|---|---|"]
    for key, rs in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        shown = "<br>".join(_short(f"{r.name}: {located(r.error)}", 200) for r in rs[:examples] if r.error)
        out.append(f"| {len(rs)} | {sum(r.name in counted for r in rs)} | {_short(key)} | {shown} |")
    return out


def console_summary(shares: list[BuildShare]) -> list[str]:
    return [
        f"{s.label}: {s.built_eligible}/{s.eligible} = {_percent(s.share)} (target ≥ {100 * s.target:.0f}%); "
        f"{s.built} of {s.programs} built in all"
        for s in shares
    ]
