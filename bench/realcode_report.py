"""Tables, failure classes and the Markdown/JSON results of bench/realcode.py."""

from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from realcode_compile import CompileError, ProgramResult

_QUOTED = re.compile(r"'([^']*)'")
_VENDOR_NAME = re.compile(
    r"^(__|cu(da|blas|fft|rand|solver|sparse|tensor|dnn|[A-Z])|CU[A-Z_]|hip|HIP|roc|nv|NV|thrust::|cub::|cooperative_groups)"
)
_HEADER_NAME = re.compile(r"\.(h|hpp|cuh|hxx|inl)$|/")
_NUMBER = re.compile(r"\b\d+\b")
_DID_YOU_MEAN = re.compile(r";? did you mean .*$")
MESSAGE_WIDTH = 160


@dataclass(frozen=True)
class SummaryRow:
    label: str
    programs: int
    translated_ok: int
    ported: int | None = None  # programs with a hand-written port (None: the corpus has none)
    ported_ok: int | None = None
    translated_ok_where_ported_ok: int | None = None

    @property
    def share_of_ceiling(self) -> float | None:
        if self.ported_ok is None or self.translated_ok_where_ported_ok is None:
            return self.translated_ok / self.programs if self.programs else None
        return self.translated_ok_where_ported_ok / self.ported_ok if self.ported_ok else None


@dataclass(frozen=True)
class FailureGroup:
    key: str
    results: tuple[ProgramResult, ...]
    where_ported_ok: int  # how many of them have a hand-written port that compiles


def _by_name(results: Iterable[ProgramResult], kind: str) -> dict[str, ProgramResult]:
    return {r.name: r for r in results if r.kind == kind}


def summary(results: list[ProgramResult], corpus: str) -> list[SummaryRow]:
    """One row for a corpus with hand-written ports (HeCBench, bitsandbytes: the ports are the ceiling); one per
    library and a total for the samples."""
    translated = _by_name((r for r in results if r.corpus == corpus), "translated")
    ported = _by_name((r for r in results if r.corpus == corpus), "ported")
    if ported:
        ported_ok = {n for n, r in ported.items() if r.ok}
        return [
            SummaryRow(
                "HeCBench" if corpus == "hecbench" else corpus,
                len(translated),
                sum(r.ok for r in translated.values()),
                len(ported),
                len(ported_ok),
                sum(r.ok for n, r in translated.items() if n in ported_ok),
            )
        ]
    libraries: dict[str, list[ProgramResult]] = defaultdict(list)
    for r in translated.values():
        libraries[r.name.split("/", 1)[0].split(":", 1)[0]].append(r)
    rows = [SummaryRow(lib, len(rs), sum(r.ok for r in rs)) for lib, rs in sorted(libraries.items())]
    return rows + [SummaryRow("all samples", len(translated), sum(r.ok for r in translated.values()))]


def shared_quotes(results: Iterable[ProgramResult]) -> set[str]:
    """Quoted names that stand for a class rather than one program's own identifier, so grouping keeps
    them: names in the first errors of two or more programs, names that look like a vendor's (CUDA, HIP,
    ROCm, compiler builtins) and header names."""
    seen: dict[str, set[str]] = defaultdict(set)
    for r in results:
        if r.error:
            for q in _QUOTED.findall(r.error.message):
                seen[q].add(r.name)
    return {q for q, names in seen.items() if len(names) > 1 or _VENDOR_NAME.match(q) or _HEADER_NAME.search(q)}


def error_class(error: CompileError, shared: set[str]) -> str:
    """The first error with what varies between instances of one cause masked: line numbers and paths,
    numbers, names only one program uses, and clang's "did you mean" suggestion. An error in a
    system header keeps the header's name."""
    message = _DID_YOU_MEAN.sub("", error.message)
    message = _QUOTED.sub(lambda m: f"'{m.group(1)}'" if m.group(1) in shared else "'…'", message)
    message = _NUMBER.sub("N", message)
    if message.startswith("source file not found"):
        message = "source file not found"
    in_system_header = error.file.startswith("/")
    return f"{os.path.basename(error.file)}: {message}" if in_system_header else message


def failure_groups(results: list[ProgramResult], kind: str, ported_ok: set[str]) -> list[FailureGroup]:
    shared = shared_quotes(results)
    groups: dict[str, list[ProgramResult]] = defaultdict(list)
    for r in results:
        if r.kind == kind and not r.ok and r.error:
            groups[error_class(r.error, shared)].append(r)
    made = [FailureGroup(key, tuple(rs), sum(r.name in ported_ok for r in rs)) for key, rs in groups.items()]
    return sorted(made, key=lambda g: (-len(g.results), g.key))


def _short(text: str, width: int = MESSAGE_WIDTH) -> str:
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= width else text[: width - 1] + "…"


def located(error: CompileError) -> str:
    via = f" (from {error.via})" if error.via else ""
    return f"{error.where()}{via}: {error.message}"


def _percent(value: float | None) -> str:
    return f"{100 * value:.1f}%" if value is not None else "-"


def summary_markdown(rows: list[SummaryRow]) -> list[str]:
    if rows and rows[0].ported is not None:
        out = [
            "| corpus | programs | translated compiled | hand-written ports | ports compiled "
            "| translated compiled where the port compiles | share of the ceiling |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for r in rows:
            out.append(
                f"| {r.label} | {r.programs} | {r.translated_ok} | {r.ported} | {r.ported_ok} "
                f"| {r.translated_ok_where_ported_ok} | {_percent(r.share_of_ceiling)} |"
            )
        return out
    out = ["| library | programs | translated compiled | share |", "|---|---:|---:|---:|"]
    out += [f"| {r.label} | {r.programs} | {r.translated_ok} | {_percent(r.share_of_ceiling)} |" for r in rows]
    return out


def groups_markdown(groups: list[FailureGroup], show_ported: bool, examples: int = 3) -> list[str]:
    if not groups:
        return ["None."]
    head = (
        "| programs | where the port compiles | first error (class) | examples |"
        if show_ported
        else ("| programs | first error (class) | examples |")
    )
    out = [head, "|---:|---:|---|---|" if show_ported else "|---:|---|---|"]
    for g in groups:
        shown = "<br>".join(_short(f"{r.name}: {located(r.error)}", 200) for r in g.results[:examples] if r.error)
        ported = f" {g.where_ported_ok} |" if show_ported else ""
        out.append(f"| {len(g.results)} |{ported} {_short(g.key)} | {shown} |")
    return out


def failures_markdown(results: list[ProgramResult], kind: str, ported_ok: set[str] | None) -> list[str]:
    failed = [r for r in results if r.kind == kind and not r.ok]
    if not failed:
        return ["None."]
    if ported_ok is not None:
        out = ["| program | port compiles | first error |", "|---|:-:|---|"]
        out += [
            f"| {r.name} | {'yes' if r.name in ported_ok else 'no'} | {_short(located(r.error)) if r.error else ''} |"
            for r in failed
        ]
        return out
    out = ["| program | first error |", "|---|---|"]
    return out + [f"| {r.name} | {_short(located(r.error)) if r.error else ''} |" for r in failed]


def console_groups(groups: list[FailureGroup], limit: int = 25, examples: int = 3) -> list[str]:
    out = []
    for g in groups[:limit]:
        out.append(f"  {len(g.results):4d}  {_short(g.key, 150)}")
        out += [f"          {_short(r.name + ': ' + located(r.error), 150)}" for r in g.results[:examples] if r.error]
    if len(groups) > limit:
        out.append(f"  ... {len(groups) - limit} more classes (see the Markdown/JSON results)")
    return out


def write_json(path: Path, results: list[ProgramResult], meta: dict[str, object]) -> None:
    shared = shared_quotes(results)
    rows = []
    for r in results:
        data = r.to_json()
        data["class"] = error_class(r.error, shared) if r.error else None
        rows.append(data)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"meta": meta, "results": rows}, indent=1) + "\n")
