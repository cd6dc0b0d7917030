"""The lines a run ends with: the summary line, and what ``--check`` found, why it fails and the
command that fixes it. Pure text from the report and the findings; the run prints them."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from ..model import Severity
from ..reports.findings import Finding, count_by_severity
from ..reports.report import Report
from .emit import OutputMode

_SHOWN_NAMES = 5
# Hand work on the project's own declarations (that need APIs HIP lacks), not on a CUDA API.
_DECLARATION_CODES = frozenset(("HPY111",))


def _plural(n: int, word: str, plural: str = "") -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _names(names: Sequence[str], limit: int = _SHOWN_NAMES) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


@dataclass(frozen=True)
class RunSummary:
    """What the run did, beyond the report: where output went and what the terminal held back."""

    mode: OutputMode
    destination: str = ""  # --out-dir DIR or -o FILE, as the user should see it
    copied: int = 0  # other files copied into the mirror
    report_path: str = ""
    held_back: int = 0  # findings not printed (cap)
    hidden_notes: int = 0  # notes not printed (no -v)
    command: tuple[str, ...] = ()  # the command line, for the fix command of --check
    config_file: str = ""  # the configuration file the run used


def summary_line(report: Report, findings: Sequence[Finding], run: RunSummary) -> str:
    mode = run.mode
    parts = [f"{_plural(report.files, 'file')} scanned"]
    if mode in (OutputMode.CHECK, OutputMode.DIFF, OutputMode.EXAMINE):
        parts.append(f"{report.changed} would change (nothing written)")
    elif mode == OutputMode.OUT_DIR:
        unchanged = report.files - report.changed
        parts.append(f"{report.changed} translated into {run.destination.rstrip('/')}/ ({unchanged} unchanged)")
        if run.copied:
            parts.append(f"{_plural(run.copied, 'other file')} mirrored")
    elif mode == OutputMode.IN_PLACE:
        parts.append(f"{report.changed} translated in place")
    elif mode == OutputMode.OUTPUT_FILE:
        parts.append(f"{report.changed} translated into {run.destination}")
    else:
        parts.append(f"{report.changed} translated (on stdout)")
    counts = count_by_severity(findings)
    found = ", ".join(
        _plural(counts[s], s.word) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)
    )  # every root cause, shown or not
    line = f"hipify-py: {', '.join(parts)}; {found}"
    if run.report_path:
        line += f"; report: {run.report_path}"
    if run.config_file:
        line += f"; config: {run.config_file}"
    if report.compat_header[0]:
        line += f"; compatibility header: {report.compat_header[0]} ({_plural(len(report.compat_header[1]), 'entry', 'entries')})"
    return line


def held_back_line(run: RunSummary) -> str:
    """Why some findings were not printed, and where to see them ('' when all were)."""
    if not run.held_back and not run.hidden_notes:
        return ""
    what = []
    if run.held_back:
        what.append(f"{_plural(run.held_back, 'more finding')} not shown (--max-findings)")
    if run.hidden_notes:
        what.append(f"{_plural(run.hidden_notes, 'note')} not shown (-v shows them)")
    where = f"all are in {run.report_path}" if run.report_path else "--report report.html lists them all"
    return f"hipify-py: {'; '.join(what)}; {where}"


def fix_command(command: Sequence[str], flags: Sequence[str]) -> str:
    """The command line that translates what --check found: --in-place instead of --check, plus the flags needed."""
    args = [a for a in command if a != "--check"]
    extra: list[str] = []
    for flag in flags:
        words = flag.split()
        if words[0] == "--rocm":  # replace any --rocm given
            args = _without_option(args, "--rocm")
        if words[0] not in args:
            extra += words
    return shlex.join(["hipify-py", "--in-place", *extra, *args])


def _without_option(args: list[str], name: str) -> list[str]:
    out: list[str] = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a == name:
            skip = True
            continue
        if a.startswith(name + "="):
            continue
        out.append(a)
    return out


def check_lines(report: Report, run: RunSummary) -> list[str]:
    """What --check found, why it fails, and what to run (empty when it passes)."""
    changed = [str(e["path"]) for e in report.per_file if e.get("changed")]
    items = report.work_items()
    flags = sorted({i.flag for i in items["flag"] if i.flag})
    flag_apis = [i.subject for i in items["flag"]]
    hand = [i.subject for i in items["hand"] if i.code not in _DECLARATION_CODES]
    declarations = [i.subject for i in items["hand"] if i.code in _DECLARATION_CODES]
    if not changed and not flag_apis and not hand and not declarations:
        return []
    lines = []
    if changed:
        lines.append(f"would translate {_plural(len(changed), 'file')}: {_names(changed)}")
    reasons = []
    if changed:
        reasons.append(f"{_plural(len(changed), 'file')} would change")
    if flag_apis:
        reasons.append(
            f"{_plural(len(flag_apis), 'CUDA API')} {'is' if len(flag_apis) == 1 else 'are'} translated only with {' '.join(flags) or 'a flag'} ({_names(flag_apis)})"
        )
    if hand:
        has = "has" if len(hand) == 1 else "have"
        reasons.append(f"{_plural(len(hand), 'CUDA API')} {has} no automatic translation ({_names(hand)})")
    if declarations:
        need = "needs" if len(declarations) == 1 else "need"
        reasons.append(
            f"{_plural(len(declarations), 'declaration')} of the project {need} CUDA APIs HIP lacks ({_names(declarations)})"
        )
    lines.append(f"hipify-py --check failed: {'; '.join(reasons)}")
    if changed or flag_apis:
        lines.append(f"  fix: {fix_command(run.command, flags)}")
    if hand or declarations:
        where = f"; {run.report_path} has a hint for each" if run.report_path else ""
        if not changed and not flag_apis:
            lines.append(
                "  nothing left that hipify-py can translate: port these by hand "
                f"(the findings above say where{where}), or mark a line `// hipify-py: ignore`"
            )
        else:
            lines.append(f"  then port by hand what remains (the findings above say where{where})")
    return lines
