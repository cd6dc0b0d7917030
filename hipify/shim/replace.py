"""``shim --replace HEADER``: the generated header written in place of a project's own vendor header.

A project that already builds for AMD often does it through a header of its own (``vendors/hip.h``): its CUDA
names defined as HIP's, the HIP includes, and lines that are the project's own (feature switches, architecture
family macros, its own types and helpers). The generated header takes the first two; the project's own lines are
found by reading its header and kept in marked sections: those before its first ``#include`` (switches HIP's
headers read) before the generated part, the others after it. A CUDA name the project's header defines is the
project's line only where the generated header does not stand for it (a helper HIP lacks); where both define it
and the definitions differ, that is reported. Written again, the marked sections are read back as they are.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable
from dataclasses import dataclass

from ..compat import load_catalog
from ..knowledge.table import MappingTable
from ..lexing.lexer import lex
from ..lexing.text_facts import INCLUDE
from ..model import Diagnostic, LineIndex, Severity, located
from ..options import Options
from .definitions import RENAME
from .plan import RUNTIME_HEADER, ShimPlan
from .render import BEGIN_AFTER, BEGIN_BEFORE, END, render_header

_DEFINE = re.compile(r"#\s*define\s+([A-Za-z_]\w*)(\(?)\s*(.*)", re.DOTALL)
_WORD = re.compile(r"[A-Za-z_]\w*")
_CONDITIONAL = re.compile(r"#\s*(if|ifdef|ifndef|elif|else|endif)\b")


@dataclass(frozen=True)
class ProjectLines:
    """What a project's vendor header keeps, and what the generated header stands for in it."""

    before: str  # the project's lines before its first #include (the switches HIP's headers read)
    after: str  # its other own lines
    cuda_defined: tuple[tuple[str, str], ...] = ()  # (CUDA name, the project's definition) the header stands for
    cuda_kept: tuple[str, ...] = ()  # CUDA names it defines that the generated header does not: kept as its own


@dataclass
class _Unit:
    """A directive, a declaration, or a conditional block (its branches' units)."""

    text: str
    keep: bool = True
    name: str = ""  # the CUDA name it defines, if any
    branches: list[tuple[str, list[_Unit]]] | None = None  # (#if/#elif/#else line, units); closed by end
    end: str = ""


def read_project_header(
    text: str, cuda_names: Container[str], covered: Container[str], hip_included: Container[str]
) -> ProjectLines:
    """The project's own lines of its vendor header ``text``: ``cuda_names``: the table's names; ``covered``: those
    the generated header stands for (defined, provided, or spelled alike by HIP); ``hip_included``: the headers
    the generated header includes."""
    if BEGIN_AFTER in text or BEGIN_BEFORE in text:
        return ProjectLines(_section(text, BEGIN_BEFORE), _section(text, BEGIN_AFTER))
    units = _units(_logical_lines(text))
    defined: list[tuple[str, str]] = []
    kept: list[str] = []
    _mark(units, cuda_names, covered, hip_included, defined, kept)
    first_include = next((i for i, u in enumerate(units) if _is_include(u)), len(units))
    before = _render(units[:first_include])
    after = _render(units[first_include:])
    return ProjectLines(before, after, tuple(defined), tuple(sorted(set(kept))))


def differing(lines: ProjectLines, ours: dict[str, str]) -> list[tuple[str, str, str]]:
    """(CUDA name, the project's value, ours) where the project's header defines a name as a macro of another
    value than the generated header's (``ours``: name -> the value it is defined as)."""
    out = []
    for name, definition in lines.cuda_defined:
        m = _DEFINE.match(definition)
        if m is None or name not in ours:
            continue
        value = " ".join(m.group(3).split()) if not m.group(2) else "(" + " ".join(m.group(3).split())
        if value != ours[name]:
            out.append((name, value, ours[name]))
    return out


def _section(text: str, begin: str) -> str:
    start = text.find(begin)
    if start < 0:
        return ""
    body = text[start + len(begin) :]
    return body[: body.find(END)].strip("\n") if END in body else body.strip("\n")


def _logical_lines(text: str) -> list[str]:
    """Lines with a directive's continuations joined to it (kept as written, newlines included)."""
    out: list[str] = []
    pending = ""
    for line in text.splitlines(keepends=True):
        pending += line
        if pending.lstrip().startswith("#") and line.rstrip("\n").endswith("\\"):
            continue
        out.append(pending)
        pending = ""
    if pending:
        out.append(pending)
    return out


def _units(lines: list[str]) -> list[_Unit]:
    """Directives, declarations (up to their closing ``;`` or ``}`` at depth 0) and conditional blocks."""
    root: list[_Unit] = []
    stack: list[_Unit] = []
    declaration = ""
    depth = 0

    def target() -> list[_Unit]:
        if stack:
            branches = stack[-1].branches
            assert branches is not None
            return branches[-1][1]
        return root

    for line in lines:
        stripped = line.strip()
        if declaration or (stripped and not stripped.startswith("#") and not stripped.startswith("//")):
            declaration += line
            code = lex(declaration).masked
            depth = code.count("{") - code.count("}")
            if depth <= 0 and code.rstrip().endswith((";", "}")):
                target().append(_Unit(declaration))
                declaration = ""
            continue
        m = _CONDITIONAL.match(stripped)
        if m is None:
            target().append(_Unit(line))
        elif m.group(1) in ("if", "ifdef", "ifndef"):
            block = _Unit("", branches=[(line, [])])
            target().append(block)
            stack.append(block)
        elif m.group(1) in ("elif", "else") and stack:
            branches = stack[-1].branches
            assert branches is not None
            branches.append((line, []))
        elif m.group(1) == "endif" and stack:
            stack.pop().end = line
        else:
            target().append(_Unit(line))
    if declaration:
        target().append(_Unit(declaration))
    return root


def _mark(
    units: Iterable[_Unit],
    cuda_names: Container[str],
    covered: Container[str],
    hip_included: Container[str],
    defined: list[tuple[str, str]],
    kept: list[str],
) -> None:
    for unit in units:
        if unit.branches is not None:
            for _, inner in unit.branches:
                _mark(inner, cuda_names, covered, hip_included, defined, kept)
            unit.keep = any(u.keep for _, inner in unit.branches for u in inner if u.text.strip() or u.branches)
            continue
        stripped = unit.text.strip()
        if stripped.startswith("#"):
            include = INCLUDE.match(stripped)
            if include is not None:
                unit.keep = include.group(2).strip() not in hip_included
                continue
            if re.match(r"#\s*pragma\s+once\b", stripped):
                unit.keep = False
                continue
            m = _DEFINE.match(stripped)
            name = m.group(1) if m else ""
        else:
            name = _declared_name(stripped)
        if name and name in cuda_names:
            unit.name = name
            if name in covered:
                unit.keep = False
                defined.append((name, stripped))
            else:
                kept.append(name)


def _declared_name(declaration: str) -> str:
    """The name a declaration declares: a typedef's or alias's, else the function's or variable's (the word before
    its first ``(`` or ``=`` or ``;``)."""
    code = lex(declaration).masked
    if code.lstrip().startswith("typedef"):
        words = _WORD.findall(code.split(";")[0])
        return words[-1] if words else ""
    alias = re.match(r"\s*using\s+([A-Za-z_]\w*)\s*=", code)
    if alias:
        return alias.group(1)
    head = re.split(r"[(=;{]", code, maxsplit=1)[0]
    words = _WORD.findall(head)
    return words[-1] if words else ""


def _is_include(unit: _Unit) -> bool:
    if unit.branches is not None:
        return any(_is_include(u) for _, inner in unit.branches for u in inner)
    return INCLUDE.match(unit.text.strip()) is not None


def _render(units: Iterable[_Unit]) -> str:
    out: list[str] = []
    for unit in units:
        if not unit.keep:
            continue
        if unit.branches is not None:
            for line, inner in unit.branches:
                out.append(line)
                body = _render(inner)
                out.append(body + "\n" if body else "")
            out.append(unit.end if unit.end.endswith("\n") else unit.end + "\n")
        else:
            out.append(unit.text)
    text = "".join(out)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


DIFFERS = "HPY140"


def replaced_header(
    plan: ShimPlan, current: str, name: str, table: MappingTable, options: Options
) -> tuple[str, list[Diagnostic]]:
    """The header written in place of ``current`` (the project's vendor header, or one written so before), and a
    finding for each CUDA name the project's header defines otherwise than the generated one."""
    # Only what the generated header itself defines or provides: a name the table says HIP spells alike may still
    # be missing from the release's headers (the project defined it for a reason), so the project's stays.
    catalog = load_catalog()
    entries = catalog.closure(catalog.by_entry_name[n] for n in plan.compat_entries)
    provided = {n for e in entries if e.applies_to(options.rocm_version) for n in e.provides}
    covered = {d.name for d in plan.definitions} | provided
    hip_included = {h for s in plan.stand_ins for h in s.hip} | {RUNTIME_HEADER}
    lines = read_project_header(current, table.by_name, covered, hip_included)
    ours = {d.name: d.target for d in plan.definitions if d.section == RENAME}
    notes = []
    index = LineIndex.of(current)
    for cuda, theirs, mine in differing(lines, ours):
        m = re.search(rf"#\s*define\s+{re.escape(cuda)}\b", current)
        where = m.start() if m else 0
        text = (
            f"{cuda}: the project's header defines it as {theirs}, the generated header as {mine} (the generated "
            "definition replaces it: check the project does not rely on its own)"
        )
        notes.append(located(Diagnostic(DIFFERS, text, where, severity=Severity.WARNING, subject=cuda), index, ""))
    return render_header(plan, name, before=lines.before, after=lines.after), notes
