"""The clang engine's entry point: ``run(source, table, options) -> EngineResult``.

Start from the text facts (the regex engine's); where the AST can change the answer
(``need.parse_reason``), parse once and build :class:`FileFacts` from tokens + AST. Either
way the shared planner decides the edits.
Never raises for bad input: a file the parser chokes on still gets its token-derived
facts (with HPY203/HPY109); only a broken libclang raises, and ``hipify.translation.engines`` then
falls back to the regex engine for that file.
"""

from __future__ import annotations

import os
from dataclasses import replace

from ..knowledge.codes import WORK_LIMIT
from ..knowledge.table import MappingTable
from ..lexing.facts import FileFacts
from ..lexing.lexer import lex
from ..machinery.limits import clang_breach
from ..model import Diagnostic, EngineResult, Severity, SourceFile
from ..options import Options
from .ast_facts import build_facts
from .compdb import database_path
from .need import parse_reason
from .parsing import Parsed, parse


def facts(source: SourceFile, table: MappingTable, options: Options) -> FileFacts:
    """What libclang learned about ``source`` (exposed for tests and ``--examine``)."""
    parsed = parse(source, table, options)
    return build_facts(parsed, source.text, table, options)


def run(source: SourceFile, table: MappingTable, options: Options) -> EngineResult:
    from ..regex_mode.engine import function_declarators, text_facts
    from ..rewrite import (
        plan,  # the shared planner; imported late so facts() works without it
    )
    from ..rewrite.index import index_of

    from_text = text_facts(source, table, options)
    if options.clang_parse != "always" and not parse_reason(source, from_text, table, index_of(table), options):
        return plan(source, from_text, table, options, engine="clang")  # the AST would change nothing
    breach = clang_breach(source.text, from_text.masked or lex(source.text).masked)
    if breach is not None:  # the parser could crash or swamp the run: the text facts decide
        result = plan(source, from_text, table, options, engine="regex")
        note = Diagnostic(
            WORK_LIMIT,
            f"the clang engine was not used: {breach.describe()}; used the regex engine",
            severity=Severity.WARNING,
        )
        return replace(result, diagnostics=(note,) + result.diagnostics)
    parsed = parse(source, table, options)
    # (a CUDA function's name behind a pointer declarator is the file's, as the text says, also where the parse of
    # a translated file's HIP text failed and the AST cannot say whose it is)
    from_ast = function_declarators(build_facts(parsed, source.text, table, options), table)
    result = plan(source, from_ast, table, options, engine="clang")
    notes = tuple(
        Diagnostic("HPY308", f"an include reaches {path}, which is not a regular file: parsed as empty")
        for path in source.project.not_regular
    )
    return replace(result, diagnostics=notes + result.diagnostics, inputs=inputs_of(parsed, options))


def inputs_of(parsed: Parsed, options: Options) -> tuple[str, ...]:
    """The files this parse read besides the source: every header it included (those a
    precompiled header holds are covered by the CUDA environment in the cache key), and the
    compilation database its flags came from."""
    files = {os.path.realpath(inc.include.name) for inc in parsed.tu.get_includes() if inc.include is not None}
    files.discard(os.path.realpath(parsed.path))
    if options.build_dir:
        files.add(os.path.realpath(database_path(options.build_dir)))
    return tuple(sorted(files))
