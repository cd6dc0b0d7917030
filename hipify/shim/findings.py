"""What a header cannot stand for: the places where the translation changes the code itself, and the findings it
leaves (APIs HIP lacks, inline PTX, an architecture tier that needs a source decision), at ``file:line``.

The project's translation is planned as usual (the same rules, the same decisions); each of its edits is either
one a definition in the header stands for (a rename, an argument transform, an include, a macro the HIP headers
need) or a change to the code that no header can make: that place needs a HIP branch of its own (HPY122). Its
findings are kept as the translation reports them, less those the header settles (a version condition decided by
the header's definition of the macro).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace

from ..knowledge.codes import describe
from ..model import Diagnostic, Edit, LineIndex, Severity, located
from ..translation.api import Result

CANNOT_SHIM = "HPY122"
# Edits a definition in the header stands for.
STOOD_FOR = frozenset(
    (
        "HPY001",  # a rename: a macro of the CUDA name
        "HPY002",  # an include: the header stands for the CUDA header (a project header's spelling is the build's)
        "HPY003",  # the HIP runtime include: the header includes it
        "HPY004",  # a launch rewritten on request: hipcc takes <<<>>>
        "HPY005",  # an argument transform: a macro or an adaptor
        "HPY006",  # a macro the HIP headers need: defined before them
        "HPY007",  # an include of a renamed file: nothing is renamed
        "HPY008",  # a widened lane mask: the compatibility overloads take 32-bit masks
        "HPY009",  # a calling-convention macro deleted: defined empty
        "HPY012",  # the compatibility header: its entries are in the header
        "HPY013",  # `register` removed: the header lets hipcc accept it
        "HPY015",  # a vector operator HIP's types define disabled: the header's own is preferred over both
        "HPY019",  # a version or architecture condition decided: the header defines the macro with that value
    )
)
# Edits that are standard C++ nvcc compiles as well (a `template` keyword, `dim3(x, y, z)` for `make_uint3`, a
# respelled launch, a typed empty brace): made in the one source, they need no branch.
PORTABLE = frozenset(("HPY021", "HPY023", "HPY026", "HPY030"))
# Findings the header settles (the macro the condition tests is defined with the decided value).
SETTLED = frozenset(("HPY019", "HPY015"))
# A device function the project defines where HIP's headers define it (atomicMax(float*, float)): the translation
# disables the project's; the header renames the name, so that the project's is an overload beside HIP's.
REDEFINITION = "HPY014"
VECTOR_OPERATOR = "HPY015"  # an operator of CUDA vectors HIP's types define too, computed alike
# Findings about another ROCm release's translation: a header is written for one release (its first line says which).
OTHER_RELEASE = frozenset(("HPY022",))
DISABLED = "HPY010"
BLOCKED_USE = "HPY111"  # a use of a declaration that needs what HIP lacks
INCLUDE = "HPY002"  # a declaration needing APIs HIP lacks, disabled by the translation
MISSING = frozenset(("HPY101", "HPY105", "HPY106"))  # a CUDA name HIP lacks (under the options), left as written
PLACEHELD = "the header declares it under its CUDA name, so that code passing it along compiles (no HIP API takes it)"


def cannot_shim(
    path: str,
    text: str,
    result: Result,
    placeholders: frozenset[str] = frozenset(),
    compiles: frozenset[str] = frozenset(),
    own: frozenset[str] = frozenset(),
    settled: frozenset[tuple[str, str]] = frozenset(),
) -> list[Diagnostic]:
    """The places of one file that need a HIP branch: one finding per rule and subject where the translation
    changes the code (several edits of one change, a disabled declaration's ``#if`` and ``#endif``, are one), then
    the translation's own findings, less those the header settles. ``placeholders``: CUDA names HIP lacks that the
    header declares all the same (enumerations: their uses are notes); ``compiles``: declarations the translation
    disables that compile with those (what it disables them for is declared, by the header or the project);
    ``own``: CUDA names the project defines itself (no name it lacks); ``settled``: (code, CUDA name) of findings
    and changes the header's definition of the name makes needless (an overload set of both CUDA versions' forms;
    a project's own definition of a function HIP defines, renamed beside it)."""
    index = LineIndex.of(text)
    # The edits of each change: (rule, subject, ordinal) -> its edits. A declaration put behind a condition is one
    # change (its #if and #endif); the next declaration of the same name (helper_math.h's twenty operator*) another.
    changes: dict[tuple[str, str, int], list[Edit]] = {}
    closed: dict[tuple[str, str], int] = {}
    quoted: list[Diagnostic] = []
    for edit in sorted(result.edits, key=_edit_order):
        key = (edit.code, edit.subject)
        if edit.code == INCLUDE and edit.replacement == f'"{edit.subject}"':
            quoted.append(located(_found_only_beside(edit), index, path))
        elif edit.code not in STOOD_FOR and key not in settled:
            changes.setdefault((*key, closed.get(key, 0)), []).append(edit)
            if _CLOSES.search(edit.replacement):
                closed[key] = closed.get(key, 0) + 1
    spans = [(code, edits[0].start, max(e.end for e in edits)) for (code, _, _), edits in changes.items()]
    out = quoted + [
        located(_source_change(edits[0], text, _own_word(result.diagnostics, code, span)), index, path)
        for ((code, subject, _), edits), span in zip(changes.items(), spans, strict=True)
        if not (code == DISABLED and (subject in compiles or subject.split(":", 1)[0] in own))
    ]
    for diag in result.diagnostics:
        if diag.code in SETTLED or diag.code in OTHER_RELEASE or (diag.code, diag.subject) in settled:
            continue
        if any(code == diag.code and start <= diag.offset <= end for code, start, end in spans):
            continue  # the rule's own word on its change (HPY122 stands for it), or on one the header makes needless
        if (diag.code in MISSING and diag.subject in own) or (diag.code == BLOCKED_USE and diag.subject in compiles):
            continue  # the project defines what HIP lacks itself
        if diag.code in MISSING and diag.subject in placeholders:
            diag = replace(diag, severity=Severity.INFO, message=f"{diag.subject}: HIP lacks it; {PLACEHELD}")
        out.append(diag)
    return sorted(out, key=lambda d: (d.line, d.col, d.code))


def _edit_order(edit: Edit) -> tuple[int, int]:
    return edit.start, edit.end


_SHOWN_EDIT = 80  # the longest edit quoted in a finding (either side)


_CLOSES = re.compile(r"^[ \t]*#[ \t]*endif\b", re.MULTILINE)  # an edit closing the condition it opened


def _own_word(diagnostics: Iterable[Diagnostic], code: str, span: tuple[str, int, int]) -> str:
    """The subject of the rule's own finding on its change (``operator/`` where the edits name the declaration
    ``operator``), or ""."""
    _, start, end = span
    return next((d.subject for d in diagnostics if d.code == code and start <= d.offset <= end and d.subject), "")


def _source_change(edit: Edit, text: str, subject: str = "") -> Diagnostic:
    rule = describe(edit.code)
    subject = subject or edit.subject.split(":", 1)[0]
    what = f"{subject}: " if subject else ""
    portable = edit.code in PORTABLE
    message = f"{what}the translation changes the code here ({edit.code} {rule.name}), which a header cannot do: " + (
        "the edit is valid CUDA too, so it needs no HIP branch: make it in the one source"
        if portable
        else "this place needs a HIP branch of its own"
    )
    shown = _shown_edit(edit, text)
    if shown:
        message += f" (the edit: {shown})" if portable else f" (the HIP branch's edit: {shown})"
    return Diagnostic(CANNOT_SHIM, message, edit.start, severity=Severity.WARNING, subject=subject or edit.code)


_NEXT_WORD = re.compile(r"[ \t]*(\w+|\S)")


def _shown_edit(edit: Edit, text: str) -> str:
    """```written` -> `wanted``` for a short edit; an insertion shows the word it goes before (`template `)."""
    written, wanted = " ".join(text[edit.start : edit.end].split()), " ".join(edit.replacement.split())
    if not wanted or len(written) > _SHOWN_EDIT or len(wanted) > _SHOWN_EDIT:
        return ""
    if written:
        return f"`{written}` -> `{wanted}`"
    following = _NEXT_WORD.match(text, edit.end)
    if following is None or "\n" in edit.replacement:
        return ""
    word = following.group(1)
    return f"`{word}` -> `{' '.join((edit.replacement + word).split())}`"


def _found_only_beside(edit: Edit) -> Diagnostic:
    """``#include <x.h>`` of a header found only next to the file: the translation quotes it; the build finds it with
    ``-I`` of the folder (what builds for nvcc often pass), or the include needs quotes."""
    message = (
        f"<{edit.subject}> is found only next to this file: the translation quotes the include; built as it is, the "
        "build needs -I of this folder (or quotes)"
    )
    return Diagnostic(CANNOT_SHIM, message, edit.start, severity=Severity.INFO, subject=edit.subject)


def needs_register_accepted(results: Iterable[Result]) -> bool:
    """Does some file use the ``register`` storage class (C++17 removed it; hipcc rejects it, nvcc warns)?"""
    return any(edit.code == "HPY013" for result in results for edit in result.edits)


def by_path(findings: Mapping[str, list[Diagnostic]]) -> list[Diagnostic]:
    """Every finding, by path and place."""
    return [d for path in sorted(findings) for d in findings[path]]
