"""The clang engine's entry point: ``run(source, table, options) -> EngineResult``.

Start from the text facts (the regex engine's); where the AST can change the answer
(``need.parse_reason``), parse once and build :class:`FileFacts` from tokens + AST. Either
way the shared planner decides the edits.
Never raises for bad input: a file the parser chokes on still gets its token-derived
facts (with HPY203/HPY109); only a broken libclang raises, and ``hipify.engines`` then
falls back to the regex engine for that file.
"""

from __future__ import annotations

from ..facts import FileFacts
from ..model import EngineResult, SourceFile
from ..options import Options
from ..table import MappingTable
from .ast_facts import build_facts
from .need import parse_reason
from .parsing import parse


def facts(source: SourceFile, table: MappingTable, options: Options) -> FileFacts:
    """What libclang learned about ``source`` (exposed for tests and ``--examine``)."""
    parsed = parse(source, table, options)
    return build_facts(parsed, source.text, table, options)


def run(source: SourceFile, table: MappingTable, options: Options) -> EngineResult:
    from ..regex_mode.engine import text_facts
    from ..rewrite import (
        plan,  # the shared planner; imported late so facts() works without it
    )
    from ..rewrite.index import index_of

    from_text = text_facts(source, table, options)
    if options.clang_parse != "always" and not parse_reason(source, from_text, table, index_of(table), options):
        return plan(source, from_text, table, options, engine="clang")  # the AST would change nothing
    return plan(source, facts(source, table, options), table, options, engine="clang")
