"""The one planner: facts (from either engine) + table + options -> edits and diagnostics.

``plan(source, facts, table, options, engine)`` runs every registered rule (see
``rules/``), drops diagnostics inside suppressed regions, and never raises: a rule that
fails is reported (HPY204) and its findings are discarded, the others still apply.
"""

from __future__ import annotations

from ..knowledge.codes import INTERNAL_ERROR
from ..knowledge.table import MappingTable
from ..lexing.facts import FileFacts
from ..model import Diagnostic, Edit, EngineResult, Severity, SourceFile
from ..options import Options
from . import rules  # noqa: F401  (registers the rules)
from .context import Context
from .registry import RULES
from .rules.compat import compat_use
from .rules.includes import include_path_edits
from .rules.samples_helpers import helper_entries
from .rules.unavailable import in_skipped_code, is_quiet


def plan(source: SourceFile, facts: FileFacts, table: MappingTable, options: Options, engine: str) -> EngineResult:
    ctx = Context(source, facts, table, options, engine)
    suppression = ctx.suppression
    if suppression.skip_file:
        renamed = tuple(include_path_edits(ctx))  # the output tree's file names change all the same
        note = Diagnostic(
            "HPY305",
            "skipped: the file is marked 'hipify-py: skip-file'",
            offset=suppression.skip_offset,
            severity=Severity.INFO,
        )
        return EngineResult(renamed, (note,), engine)
    edits: list[Edit] = []
    diagnostics: list[Diagnostic] = list(facts.diagnostics)
    for name in sorted(RULES):  # name order: the order does not depend on which module imports which
        rule = RULES[name]
        try:
            findings = list(rule(ctx))
        except Exception as exc:
            diagnostics.append(
                Diagnostic(
                    INTERNAL_ERROR,
                    f"internal error in rule {name}: {type(exc).__name__}: {exc}",
                    severity=Severity.ERROR,
                )
            )
            continue
        text = source.text
        for finding in findings:
            if type(finding) is Edit:
                # Rules skip no-op renames themselves; this also catches e.g. identical headers.
                if finding.replacement != text[finding.start : finding.end]:
                    edits.append(finding)
            elif isinstance(finding, Diagnostic) and not suppression.covers(finding.offset):
                diagnostics.append(finding)
    if ctx.source.project.disabled:  # findings inside disabled declarations are summed up in their HPY010
        diagnostics = [d for d in diagnostics if not is_quiet(ctx, d)]
    diagnostics = in_skipped_code(ctx, diagnostics)
    # The samples helpers the output gets (rules/samples_helpers.py) are written with the compatibility header.
    entries = tuple(sorted({*compat_use(ctx).entries, *helper_entries(ctx)}))
    return EngineResult(tuple(edits), tuple(diagnostics), engine, entries)
