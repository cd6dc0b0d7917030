"""Findings as people read them: one line per root cause, in gcc's form, capped.

The report keeps every diagnostic; the terminal shows each root cause once:

- a parse error in an included header is one finding at the header's line, "affects N files";
- the same API finding (same code, same CUDA name) is one finding at its first use, with how
  many uses in how many files (the lines in one file; the report lists every place);
- anything else is its own finding.

Paths are relative to the working directory, so editors and CI problem matchers can open them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..model import Diagnostic, FileResult, Severity

# How many findings the terminal shows by default before pointing to the report.
DEFAULT_MAX_FINDINGS = 40
# Codes whose finding in one file can be the same root cause as in the files that include it.
_SHARED_CAUSE_CODES = frozenset(("HPY203",))
_MISSING_INCLUDE = re.compile(r"'([^']+)' file not found")
_SHOWN_LINES = 6  # of a repeated finding's other lines
_SHOWN_FILES = 3  # of the files a header's problem affects


@dataclass(frozen=True)
class Finding:
    """One root cause, as printed: ``path:line:col: warning: message [HPY101]``."""

    path: str
    line: int
    col: int
    severity: Severity
    code: str
    message: str

    def format(self) -> str:
        where = f"{self.path}:{self.line}:{self.col}" if self.line else self.path
        return f"{where}: {self.severity.word}: {self.message} [{self.code}]"


@dataclass
class _Group:
    key: tuple[object, ...]
    first: Diagnostic
    place: tuple[str, int, int]
    lines: list[int] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def shown_path(path: str) -> str:
    """A path as the user should see it: relative to the working directory when that is shorter."""
    if not os.path.isabs(path):
        return path
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return relative if len(relative) < len(path) else path


def root_causes(
    diagnostics: Iterable[tuple[str, Diagnostic]], include_hint: IncludeHints | None = None
) -> list[Finding]:
    """Group ``(file path on disk, diagnostic)`` pairs into findings, in first-seen order."""
    groups: dict[tuple[object, ...], _Group] = {}
    for source_path, diag in diagnostics:
        key: tuple[object, ...]
        missing = _MISSING_INCLUDE.search(diag.subject) if diag.code in _SHARED_CAUSE_CODES else None
        if missing is not None:  # one missing header, however many files include it
            key = ("missing", diag.code, missing.group(1))
            place = (diag.path, diag.line, diag.col)
        elif diag.cause:
            header = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(source_path)), diag.cause[0]))
            key = ("cause", diag.code, header, diag.cause[1], diag.subject)
            place = (shown_path(header), diag.cause[1], diag.cause[2])
        elif diag.code in _SHARED_CAUSE_CODES and diag.line:  # the same error met parsing the file itself
            key = ("cause", diag.code, os.path.realpath(source_path), diag.line, diag.subject)
            place = (diag.path, diag.line, diag.col)
        elif diag.subject and diag.line:
            key = ("subject", diag.code, diag.subject)
            place = (diag.path, diag.line, diag.col)
        else:
            key = ("own", diag.path, diag.line, diag.col, diag.code, diag.message)
            place = (diag.path, diag.line, diag.col)
        group = groups.get(key)
        if group is None:
            group = groups[key] = _Group(key, diag, place)
        group.lines.append(diag.line)
        if diag.path not in group.files:
            group.files.append(diag.path)
    return [_finding(group, include_hint) for group in groups.values()]


def _finding(group: _Group, include_hint: IncludeHints | None) -> Finding:
    diag = group.first
    path, line, col = group.place
    if group.key[0] == "missing":
        files = group.files
        message = f"parse error: {diag.subject}"
        if len(files) > 1:
            names = ", ".join(files[:_SHOWN_FILES]) + (
                f" and {len(files) - _SHOWN_FILES} more" if len(files) > _SHOWN_FILES else ""
            )
            message += f"; in {len(files)} files ({names})"
    elif group.key[0] == "cause":
        files = [f for f in group.files if f != path]  # the others that met it through an include
        message = f"parse error: {diag.subject}" if diag.code == "HPY203" and diag.subject else diag.message
        if files:
            names = ", ".join(files[:_SHOWN_FILES]) + (
                f" and {len(files) - _SHOWN_FILES} more" if len(files) > _SHOWN_FILES else ""
            )
            message += f"; affects {len(files)} file{'s' if len(files) != 1 else ''} that include it ({names})"
    else:
        message = diag.message
        if len(group.files) > 1:
            message += f" ({len(group.lines)} uses in {len(group.files)} files)"
        elif len(group.lines) > 1:
            others = sorted(set(group.lines[1:]) - {line})
            listed = ", ".join(map(str, others[:_SHOWN_LINES])) + (", ..." if len(others) > _SHOWN_LINES else "")
            message += f" ({len(group.lines)} uses in this file" + (f"; also line {listed}" if others else "") + ")"
    missing = _MISSING_INCLUDE.search(diag.subject or diag.message) if diag.code == "HPY203" else None
    if missing is not None and include_hint is not None:
        message += f"; {include_hint.hint(missing.group(1))}"
    return Finding(path, line, col, diag.severity, diag.code, message)


class IncludeHints:
    """For an include nothing found: where in the repository a file of that name is, as the
    ``-I`` to pass (the project model already uses directories inside the translated tree)."""

    MAX_ENTRIES = 200_000  # bound the walk of a huge repository

    def __init__(self, roots: Sequence[str]) -> None:
        self.roots = [os.path.abspath(r) for r in roots]
        self._index: dict[str, list[str]] | None = None

    def _files(self) -> dict[str, list[str]]:
        if self._index is None:
            index: dict[str, list[str]] = {}
            seen = 0
            for root in self.roots:
                for directory, dirs, files in os.walk(root):
                    dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                    for name in files:
                        index.setdefault(name, []).append(os.path.join(directory, name))
                    seen += len(files) + len(dirs)
                    if seen > self.MAX_ENTRIES:
                        break
            self._index = index
        return self._index

    def hint(self, include: str) -> str:
        tail = "/" + include.replace("\\", "/").lstrip("./")
        found = sorted(p for p in self._files().get(os.path.basename(include), []) if p.endswith(tail))
        if not found:
            return f"hint: {include} is not in this repository: pass -I DIR where it lives (or -p BUILD_DIR)"
        directory = found[0][: -len(tail)] or "/"
        return f"hint: pass -I {shown_path(directory)} ({include} is there)"


@dataclass
class FindingsLog:
    """Collects each file's diagnostics while the run goes on; prints the root causes at the end."""

    show_info: bool = False  # notes too (-v)
    quiet: bool = False  # errors only (-q)
    limit: int = DEFAULT_MAX_FINDINGS  # 0 = no cap
    pairs: list[tuple[str, Diagnostic]] = field(default_factory=list)

    def add(self, result: FileResult) -> None:
        self.pairs.extend((result.path, d) for d in result.diagnostics)

    def findings(self, include_hint: IncludeHints | None = None) -> list[Finding]:
        return root_causes(self.pairs, include_hint)

    def shown(self, findings: Sequence[Finding]) -> tuple[list[Finding], int]:
        """The findings the terminal shows (errors always, the rest up to the cap) and how many it holds back."""
        visible = [f for f in findings if self._visible(f)]
        if not self.limit:
            return visible, 0
        errors = [f for f in visible if f.severity == Severity.ERROR]
        others = [f for f in visible if f.severity != Severity.ERROR]
        kept = {id(f) for f in errors} | {id(f) for f in others[: max(0, self.limit - len(errors))]}
        return [f for f in visible if id(f) in kept], len(visible) - len(kept)

    def _visible(self, finding: Finding) -> bool:
        if self.quiet:
            return finding.severity == Severity.ERROR
        return finding.severity != Severity.INFO or self.show_info


def count_by_severity(findings: Iterable[Finding]) -> dict[Severity, int]:
    counts = dict.fromkeys(Severity, 0)
    for f in findings:
        counts[f.severity] += 1
    return counts
