"""FileFacts from a libclang parse: tokens say where, the AST says what.

The shared lexer (``hipify.regex_mode``) supplies the file's layout -- comments,
directive lines, includes, bracket matching and the text of launches -- so both engines
see the same spans. libclang then decides what the text cannot know:

- which ``#if`` branches are inactive (``clang_getAllSkippedRanges``, with the real macros);
- for every identifier token, the cursor it belongs to (one ``clang_annotateTokens`` pass
  over the whole file; macro arguments resolve to their expansion's cursors): whether it
  names the user's own declaration (``user_declared``) and whether the AST resolved it
  (``Origin.AST``) or only the token is known (``Origin.TOKEN``); a declaration the parser
  made up while recovering from an error gives no verdict, and the text's stands;
- for calls, the number of written arguments (default arguments excluded), which checks
  and, when text and AST disagree, replaces the text's argument spans;
- for launches, that ``<<<`` really is the config call and whether the kernel is a
  template, explicit (``k<float>``) or deduced (``k`` with template parameters).

All offsets handed out are character offsets; libclang's byte offsets are converted here.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Sequence
from dataclasses import replace

import clang.cindex as ci

from ..knowledge.table import MappingTable
from ..lexing.condition_expr import names_used_for_value, parse
from ..lexing.conditionals import Conditional, bodies_after
from ..lexing.facts import FileFacts, Identifier, Launch, Region, rejoin_template_commas
from ..lexing.lexer import Lexed, lex
from ..lexing.regions import RegionMap
from ..lexing.text_facts import directives_of, extract_facts
from ..model import Diagnostic, LineIndex, Origin, Severity, Span
from ..options import Options
from ..rewrite.build_target import ASSUMED
from ..rewrite.index import index_of
from .cindex_ext import (
    COMMENT,
    IDENTIFIER,
    is_invalid_declaration,
    skipped_ranges,
    tokenize,
)
from .dependent_templates import MISSING_TEMPLATE, dependent_templates, missing_template_keywords
from .parsing import Parsed
from .token_positions import ByteToChar, TokenPositions

CONFIG_CALLS = frozenset(("__cudaPushCallConfiguration", "cudaConfigureCall"))
_MACRO_DEF = ci.CursorKind.MACRO_DEFINITION
_CALL = ci.CursorKind.CALL_EXPR
_OVERLOADED = ci.CursorKind.OVERLOADED_DECL_REF
_FUNCTION_TEMPLATE = ci.CursorKind.FUNCTION_TEMPLATE


def build_facts(parsed: Parsed, text: str, table: MappingTable, options: Options) -> FileFacts:
    lexed = lex(text)
    index = index_of(table)  # the same name filters as the regex engine: both engines see the same names
    base = extract_facts(
        text, options, wanted=index.wanted, wants_args=index.wants_args(), lexed=lexed, not_types=index.removed
    )
    to_char = ByteToChar(text, parsed.data)
    stream = tokenize(parsed.tu, parsed.path, len(parsed.data))
    inactive = _inactive_spans(parsed, text, to_char, _decided_bodies(text, lexed))
    regions = RegionMap(lexed.directives, inactive)
    resolver = _Resolver(parsed, table)
    positions = TokenPositions(stream, to_char, parsed.data, text)
    diagnostics: list[Diagnostic] = []

    identifiers = tuple(
        _refine_identifier(ident, positions, regions, resolver, diagnostics) for ident in base.identifiers
    )
    identifiers = _spread_user_declarations(identifiers)
    launches = tuple(_refine_launch(launch, positions, regions) for launch in base.launches)
    includes = tuple(replace(inc, region=regions.of_directive(inc.start)) for inc in base.includes)
    directives = tuple(replace(d, region=regions.of_directive(d.start)) for d in base.directives)
    dependent: tuple[int, ...] = ()
    if not any(e.spelling.endswith("file not found") for e in parsed.errors):
        # (with a header missing, a type it declares is unknown, and a call through it looks dependent)
        dependent = dependent_templates(
            base.masked or lexed.masked, positions, regions, missing_template_keywords(parsed, to_char)
        )
    diagnostics += _parse_error_diagnostics(parsed, text, to_char, identifiers, launches, table, dependent)
    return FileFacts(
        identifiers,
        launches,
        includes,
        directives,
        base.comments,
        tuple(diagnostics) + base.diagnostics,
        base.masked,
        dependent,
    )


# --------------------------------------------------------------------------- regions


def _inactive_spans(parsed: Parsed, text: str, to_char: ByteToChar, decided: Sequence[Span] = ()) -> list[Span]:
    """Character spans of skipped ``#if`` branches: from the line after the opening
    conditional to the start of the line of the closing one (both directives are active). A branch skipped only
    for a macro the translation decides as a current CUDA build (``decided``, see :func:`_decided_bodies`) is not:
    the translation writes its chain's conditions anew, and the next one reads what they say."""
    out: list[Span] = []
    for start_b, end_b in skipped_ranges(parsed.tu, parsed.path):
        start, end = to_char(start_b), to_char(end_b)
        first = text.find("\n", start)
        if first < 0:
            continue
        last = text.rfind("\n", 0, end) + 1
        if last > first + 1 and not any(s <= first and (first < e or e < 0) for s, e in decided):
            out.append((first + 1, last))
    return out


def _decided_bodies(text: str, lexed: Lexed) -> list[Span]:
    """The bodies of the ``#if`` branches whose being taken hangs on a CUDA version or architecture macro used for
    its value (``rewrite.build_target``: ``#if CUDART_VERSION < 9000``, the ``#else`` after it)."""
    if not any(name in text for name in ASSUMED):
        return []

    def tests(directive: Conditional) -> bool:
        if not any(name in directive.argument for name in ASSUMED):
            return False
        node = parse(directive.argument)
        return node is not None and bool(names_used_for_value(node) & ASSUMED.keys())

    return bodies_after(directives_of(text, lexed), tests)


class _Resolver:
    """Is a declaration the user's own, or CUDA's / the system's / our prelude's (None: no verdict)?"""

    def __init__(self, parsed: Parsed, table: MappingTable) -> None:
        self.table = table
        self.namespaced_names = index_of(table).namespaced_names
        self._system = tuple(d.rstrip("/") + "/" for d in parsed.system_dirs if d)
        self._path = parsed.path
        # Where the parser reported errors in the file itself (byte offsets, sorted).
        self._errors = sorted(
            e.location.offset
            for e in parsed.errors
            if e.location.file is not None and e.location.file.name == parsed.path
        )
        self._memo: dict[int, bool | None] = {}  # by cursor hash: the same API is referenced many times

    def namespaced(self, name: str, space: str = "") -> bool:
        """Does the table key ``name`` under a namespace (any, or ``space``)?"""
        if space:
            return f"{space}::{name}" in self.table
        return name in self.namespaced_names

    def is_user(self, decl: ci.Cursor) -> bool | None:
        key = decl.hash
        if key not in self._memo:
            self._memo[key] = self._decide(decl)
        return self._memo[key]

    def _decide(self, decl: ci.Cursor) -> bool | None:
        # The canonical (first) declaration decides: a user redeclaration of a CUDA function
        # is still CUDA's function; a user overload is a different entity, and the user's.
        canonical = decl.canonical if decl.kind != _MACRO_DEF else decl
        if self._recovered(decl) or self._recovered(canonical):
            return None
        location = canonical.location
        file = location.file
        if file is None:
            return False  # builtins
        return not (location.is_in_system_header or file.name.startswith(self._system))

    def _recovered(self, decl: ci.Cursor) -> bool:
        """Is this a declaration the parser may have made up while recovering from an error in the
        file (rejected, or in the file itself with an error of the file before its end)? How the
        parser recovers depends on the names around the broken code, which translation renames:
        ``CUresult CUresult 'c'`` declares a variable before translation and nothing after it, and
        an error before a declaration can change how it reads (``(cudaError_t cublasSgemm`` is a
        parameter until ``hipError_t`` is declared only further down). Such a declaration says
        nothing about whose the name is; the text decides, as for a name the parser did not
        resolve. Declarations in headers (CUDA's, the project's), and those before the file's
        first error, keep their verdict."""
        if is_invalid_declaration(decl):
            return True
        if not self._errors:
            return False
        extent = decl.extent
        return (
            extent.start.file is not None
            and extent.start.file.name == self._path
            and self._errors[0] <= extent.end.offset
        )


def _with(ident: Identifier, region: Region, origin: Origin, user: bool | None = None) -> Identifier:
    """The identifier with the region and origin the parser gave it (and its verdict on the declaration)."""
    return ident._replace(region=region, origin=origin, user_declared=ident.user_declared if user is None else user)


def _refine_identifier(
    ident: Identifier,
    positions: TokenPositions,
    regions: RegionMap,
    resolver: _Resolver,
    diagnostics: list[Diagnostic],
) -> Identifier:
    region = regions.of(ident.start)
    if ident.region == Region.DIRECTIVE and region == Region.CODE:
        region = Region.DIRECTIVE
    index = positions.at(ident.start)
    if index < 0 or positions.stream.kinds[index] != IDENTIFIER or region == Region.INACTIVE:
        return _with(ident, region, Origin.TOKEN)
    cursor = positions.cursor(index)
    kind = cursor.kind
    if kind == _MACRO_DEF:
        # A '#define' line: its first identifier is the macro's own (user) name.
        user = resolver.is_user(cursor) if _names_token(cursor, ident.start, positions) else None
        return _with(ident, region, Origin.TOKEN) if user is None else _with(ident, region, Origin.AST, user)
    if region == Region.DIRECTIVE:
        return _with(ident, region, Origin.TOKEN)
    if kind.is_declaration() and cursor.spelling == ident.name and _names_token(cursor, ident.start, positions):
        user = resolver.is_user(cursor)
        return _with(ident, region, Origin.TOKEN) if user is None else _with(ident, region, Origin.AST, user)
    if kind == _OVERLOADED:
        # An unresolved call (an argument did not parse, or the call is dependent): the
        # candidates are known even though none was chosen.
        verdicts = {resolver.is_user(d) for d in _overloaded_decls(cursor)}
        if len(verdicts) != 1 or None in verdicts:
            return _with(ident, region, Origin.TOKEN)
        return _with(ident, region, Origin.AST, verdicts.pop())
    referenced = (
        cursor.referenced
        if (kind.is_reference() or kind.is_expression() or kind == ci.CursorKind.MACRO_INSTANTIATION)
        else None
    )
    if referenced is None or referenced.spelling != ident.name:
        return _with(ident, region, Origin.TOKEN)
    user = resolver.is_user(referenced)
    if user is None:
        return _with(ident, region, Origin.TOKEN)
    call_args = _ast_call_args(ident, index, positions, diagnostics)
    refined = _with(ident, region, Origin.AST, user)._replace(call_args=call_args)
    if not ident.qualifier and resolver.namespaced(ident.name):
        # ``using namespace cub; BlockReduce<...>``: text sees no qualifier, the AST sees
        # where the declaration lives, so table rows keyed ``cub::BlockReduce`` still apply.
        space = _top_namespace(referenced)
        if space and resolver.namespaced(ident.name, space):
            refined = refined._replace(qualifier=space)
    return refined


def _top_namespace(decl: ci.Cursor) -> str:
    """The outermost namespace enclosing a declaration ('' for the global namespace)."""
    top = ""
    parent = decl.semantic_parent
    for _ in range(32):  # inline/detail namespaces nest a few levels; never loop forever
        if parent is None or parent.kind == ci.CursorKind.TRANSLATION_UNIT:
            break
        if parent.kind == ci.CursorKind.NAMESPACE:
            top = parent.spelling
        parent = parent.semantic_parent
    return top


def _overloaded_decls(cursor: ci.Cursor) -> list[ci.Cursor]:
    lib = ci.conf.lib
    return [lib.clang_getOverloadedDecl(cursor, i) for i in range(lib.clang_getNumOverloadedDecls(cursor))]


def _names_token(cursor: ci.Cursor, char_start: int, positions: TokenPositions) -> bool:
    """Is the declaration's own name at this token (not just some token inside its extent)?"""
    location = cursor.location
    if location.file is None:
        return False
    index = positions.at(char_start)
    return index >= 0 and positions.stream.starts[index] == location.offset


def _ast_call_args(
    ident: Identifier, index: int, positions: TokenPositions, diagnostics: list[Diagnostic]
) -> tuple[Span, ...] | None:
    """The text's argument spans, checked against the AST's count of written arguments.

    libclang annotates the ``(`` of a call with its CALL_EXPR, also inside macro arguments
    (``CUDA_CHECK(cudaMemcpyToSymbol(sym, ...))``), where the call's own extents collapse
    onto the macro name and only the tokens still say where the arguments are.
    """
    if ident.call_args is None:
        return None
    paren = positions.next_significant(index)
    if paren < 0 or not positions.is_punct(paren, b"("):
        return ident.call_args
    call = positions.cursor(paren)
    if call.kind != _CALL or call.spelling != ident.name:
        return ident.call_args
    if ci.conf.lib.clang_Cursor_getNumArguments(call) == len(ident.call_args):
        return ident.call_args  # the common case, decided without touching each argument
    # Default arguments are in the AST but not in the text: they have no extent.
    written = [arg for arg in call.get_arguments() if arg.extent.start.file is not None]
    if len(written) == len(ident.call_args):
        return ident.call_args
    # Text and AST disagree (a macro that expands to several arguments, ...): the AST's
    # extents are exact when the arguments are spelled directly in this file.
    spans = [(arg.extent.start.offset, arg.extent.end.offset) for arg in written]
    ordered = all(end > start for start, end in spans) and all(
        spans[i][1] <= spans[i + 1][0] for i in range(len(spans) - 1)
    )  # macro-made args share one extent
    if spans and ordered:
        return tuple((positions.to_char(start), positions.to_char(end)) for start, end in spans)
    # Inside a macro argument: the text split a template argument list at its commas
    # (``k<float, 4>``); rejoining them often gives the parser's count.
    rejoined = rejoin_template_commas(positions.text, ident.call_args)
    if len(rejoined) == len(written):
        return rejoined
    # Arguments made by a macro (``cudaEventCreate(EVENT_ARGS)``): the count is known, the
    # text of each is not. Empty spans keep the count for overload choice, and argument
    # wrappers skip empty spans, so nothing is wrapped around the wrong text.
    diagnostics.append(
        Diagnostic(
            "HPY109",
            f"{ident.name}: the parser sees {len(written)} argument(s) where the text shows "
            f"{len(ident.call_args)} (arguments made by a macro); check the chosen overload",
            offset=ident.start,
            severity=Severity.INFO,
            subject=ident.name,
        )
    )
    anchor = ident.call_args[0][0] if ident.call_args else positions.to_char(positions.stream.starts[paren]) + 1
    return tuple((anchor, anchor) for _ in written)


def _spread_user_declarations(identifiers: tuple[Identifier, ...]) -> tuple[Identifier, ...]:
    """Occurrences the AST could not resolve (macro bodies, inactive code, broken code) of a
    name the AST saw the user declare are the user's too; the AST's verdict wins elsewhere."""
    ast_user = {i.name for i in identifiers if i.origin == Origin.AST and i.user_declared}
    ast_cuda = {i.name for i in identifiers if i.origin == Origin.AST and not i.user_declared} - ast_user
    out = []
    for ident in identifiers:
        if ident.origin != Origin.AST:
            if ident.name in ast_user and not ident.user_declared:
                ident = ident._replace(user_declared=True)
            elif ident.name in ast_cuda and ident.user_declared:
                ident = ident._replace(user_declared=False)
        out.append(ident)
    return tuple(out)


# --------------------------------------------------------------------------- launches


def _refine_launch(launch: Launch, positions: TokenPositions, regions: RegionMap) -> Launch:
    region = regions.of(launch.start)
    if launch.region == Region.DIRECTIVE and region == Region.CODE:
        region = Region.DIRECTIVE
    if region != Region.CODE:
        return replace(launch, region=region)
    chevron = _chevron_token(launch, positions)
    if chevron < 0:
        return replace(launch, region=region)
    config = positions.cursor(chevron)
    if config.spelling not in CONFIG_CALLS:
        return replace(launch, region=region)  # the parser did not see a launch here
    template = launch.template
    paren = positions.at(launch.lparen)
    if paren >= 0:
        call = positions.cursor(paren)
        if call.kind == _CALL:
            callee = call.referenced
            if callee is not None:  # the AST's verdict replaces the text's name-based guess
                template = callee.kind == _FUNCTION_TEMPLATE or callee.get_num_template_arguments() >= 0
    return replace(launch, region=region, origin=Origin.AST, template=template)


def _chevron_token(launch: Launch, positions: TokenPositions) -> int:
    """The ``<<<`` token of a launch: the last token before the first config argument."""
    first = launch.config[0][0] if launch.config else launch.chevron_close[0]
    i = bisect.bisect_left(positions.stream.starts, positions.to_char.to_byte(first)) - 1
    while i >= 0 and positions.stream.kinds[i] == COMMENT:
        i -= 1
    if i >= 0 and positions.is_punct(i, b"<<<"):
        return i
    return -1


# --------------------------------------------------------------------------- diagnostics


def _parse_error_diagnostics(
    parsed: Parsed,
    text: str,
    to_char: ByteToChar,
    identifiers: tuple[Identifier, ...],
    launches: tuple[Launch, ...],
    table: MappingTable,
    dependent: Sequence[int] = (),
) -> list[Diagnostic]:
    """HPY203 once per file with parse errors; HPY109 on each line whose edits deserve review:
    names the parser could not resolve, launches it did not confirm, and table names on a
    line where it reported an error. A missing 'template' is no error of the translation (HPY030 adds it at
    ``dependent``), nor is what clang says of that line when it instantiates the template."""
    index = LineIndex.of(text)
    fixed = {index.line_col(offset)[0] for offset in dependent}
    errors = [
        e
        for e in parsed.errors
        if not e.spelling.startswith(MISSING_TEMPLATE)
        and not (e.location.file is not None and e.location.file.name == parsed.path and e.location.line in fixed)
    ]
    if not errors:
        return []
    # A missing include explains the errors after it: name it first.
    first = next((e for e in errors if e.spelling.endswith("file not found")), errors[0])
    where = first.location
    in_main = where.file is not None and where.file.name == parsed.path
    cause: tuple[str, int, int] | None = None
    if not in_main and where.file is not None:  # a header's error: one root cause for every file that includes it
        header = os.path.abspath(where.file.name)
        cause = (os.path.relpath(header, os.path.dirname(os.path.abspath(parsed.path))), where.line, where.column)
    count = f"{len(errors)} parse errors, among them: " if len(errors) > 1 else "parse error: "
    out = [
        Diagnostic(
            "HPY203",
            f"{count}{first.spelling}; AST-derived edits kept where valid, tokens filled the rest",
            offset=to_char(where.offset) if in_main else 0,
            severity=Severity.WARNING,
            subject=first.spelling,
            cause=cause,
        )
    ]
    error_lines = {
        e.location.line: e.spelling
        for e in errors
        if e.location.file is not None and e.location.file.name == parsed.path
    }
    seen: set[int] = set()

    def review(offset: int, message: str, subject: str = "") -> None:
        line = index.line_col(offset)[0]
        if line not in seen:
            seen.add(line)
            out.append(Diagnostic("HPY109", message, offset=offset, severity=Severity.INFO, subject=subject))

    for ident in identifiers:
        if ident.region != Region.CODE or ident.name not in table:
            continue
        line = index.line_col(ident.start)[0]
        if ident.origin == Origin.TOKEN:
            review(ident.start, f"{ident.name}: not resolved by the parser; renamed from tokens alone", ident.name)
        elif line in error_lines:
            review(
                ident.start,
                f"{ident.name}: the parser reported an error on this line ({error_lines[line]})",
                ident.name,
            )
    for launch in launches:
        if launch.region == Region.CODE and launch.origin != Origin.AST:
            review(launch.start, "kernel launch not confirmed by the parser; rewritten from text")
    return out
