"""The regex engine: ``run(source, table, options) -> EngineResult``. Pure; never raises."""

from __future__ import annotations

from dataclasses import replace

from ..knowledge.codes import INTERNAL_ERROR
from ..knowledge.table import MappingTable
from ..lexing.facts import FileFacts
from ..lexing.shared import take
from ..lexing.text_facts import SPACED_CHEVRONS, declarator_after_mark, extract_facts
from ..model import Diagnostic, EngineResult, Severity, SourceFile
from ..options import Options
from ..rewrite import plan
from ..rewrite.context import CUDA_SOURCE_SUFFIXES
from ..rewrite.index import index_of

ENGINE = "regex"


def text_facts(source: SourceFile, table: MappingTable, options: Options) -> FileFacts:
    """What the text alone says about ``source``: all the planner needs, unless the AST knows better."""
    index = index_of(table)
    # Launches matter to the planner only when rewritten, or respelled (``k << < g, b >> > (x)``), or as a sign of
    # CUDA code in a file that does not always get the runtime include (not .cu/.cuh).
    find_launches = (
        options.hip_kernel_syntax
        or not source.path.lower().endswith(CUDA_SOURCE_SUFFIXES)
        or SPACED_CHEVRONS.search(source.text) is not None
    )
    facts = extract_facts(
        source.text,
        options,
        lexed=take(source.text),  # the project scan's lexing of this text, if it kept one in this process
        wanted=index.wanted,
        wants_args=index.wants_args(),
        report_once=index.report_once(),
        find_launches=find_launches,
        not_types=index.removed,
    )
    facts = function_declarators(facts, table)
    other = frozenset(source.project.other_builds)
    if not other:
        return facts
    # The file #defines these names only for the project's other builds: here they are CUDA's.
    identifiers = tuple(
        i._replace(user_declared=False) if i.user_declared and i.name in other else i for i in facts.identifiers
    )
    return replace(facts, identifiers=identifiers)


def function_declarators(facts: FileFacts, table: MappingTable) -> FileFacts:
    """The file's own declarations of CUDA function names behind a pointer or reference declarator
    (``MemCreateFn *cuMemCreate{nullptr};``, a driver table's member): the name is the file's there and wherever it
    appears. Only function names: a flag after ``&`` (``flags & cudaHostAllocMapped)``) is a use."""
    declared = {
        i.name
        for i in facts.identifiers
        if i.prev_token in ("*", "&")
        and not i.user_declared
        and not i.directive
        and (row := table.lookup(i.name)) is not None
        and row.kind == "function"
        and declarator_after_mark(facts.masked, i.start, i.name)
    }
    if not declared:
        return facts
    identifiers = tuple(i._replace(user_declared=True) if i.name in declared else i for i in facts.identifiers)
    return replace(facts, identifiers=identifiers)


def run(source: SourceFile, table: MappingTable, options: Options) -> EngineResult:
    try:
        return plan(source, text_facts(source, table, options), table, options, engine=ENGINE)
    except Exception as exc:
        diag = Diagnostic(
            INTERNAL_ERROR, f"internal error in the regex engine: {type(exc).__name__}: {exc}", severity=Severity.ERROR
        )
        return EngineResult((), (diag,), ENGINE)
