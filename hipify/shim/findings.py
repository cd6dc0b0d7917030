"""What a header cannot stand for: the places where the translation changes the code itself, and the findings it
leaves (APIs HIP lacks, inline PTX, an architecture tier that needs a source decision), at ``file:line``.

The project's translation is planned as usual (the same rules, the same decisions); each of its edits is either
one a definition in the header stands for (a rename, an argument transform, an include, a macro the HIP headers
need) or a change to the code that no header can make: that place needs a HIP branch of its own (HPY122). Its
findings are kept as the translation reports them, less those the header settles (a version condition decided by
the header's definition of the macro).
"""

from __future__ import annotations

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
        "HPY019",  # a version or architecture condition decided: the header defines the macro with that value
    )
)
# Findings the header settles (the macro the condition tests is defined with the decided value).
SETTLED = frozenset(("HPY019",))
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
    the header's definition of the name makes needless (an overload set of both CUDA versions' forms)."""
    index = LineIndex.of(text)
    changes: dict[tuple[str, str], list[Edit]] = {}  # the edits of each change: (rule, subject) -> its edits
    quoted: list[Diagnostic] = []
    for edit in sorted(result.edits, key=_edit_order):
        if edit.code == INCLUDE and edit.replacement == f'"{edit.subject}"':
            quoted.append(located(_found_only_beside(edit), index, path))
        elif edit.code not in STOOD_FOR:
            changes.setdefault((edit.code, edit.subject), []).append(edit)
    out = quoted + [
        located(_source_change(edits[0], text), index, path)
        for (code, subject), edits in changes.items()
        if not (code == DISABLED and (subject in compiles or subject.split(":", 1)[0] in own))
    ]
    spans = [(code, edits[0].start, max(e.end for e in edits)) for (code, _), edits in changes.items()]
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


def _source_change(edit: Edit, text: str) -> Diagnostic:
    rule = describe(edit.code)
    subject = edit.subject.split(":", 1)[0]
    what = f"{subject}: " if subject else ""
    message = (
        f"{what}the translation changes the code here ({edit.code} {rule.name}), which a header cannot do: "
        "this place needs a HIP branch of its own"
    )
    written, wanted = " ".join(text[edit.start : edit.end].split()), " ".join(edit.replacement.split())
    if written and wanted and len(written) <= _SHOWN_EDIT and len(wanted) <= _SHOWN_EDIT:
        message += f" (the HIP branch's edit: `{written}` -> `{wanted}`)"
    return Diagnostic(CANNOT_SHIM, message, edit.start, severity=Severity.WARNING, subject=subject or edit.code)


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
