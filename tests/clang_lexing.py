"""clang's own lexer as the reference for what is a comment, a literal and a line end.

``clang_spans`` tokenizes a text with libclang (``clang_tokenize`` lexes the file raw: every
comment, active or not, inactive branches and directive lines included) and returns the
character spans of its comments and of its string and character literals, the unterminated
ones included (clang reads those as one "unknown" token up to the line end). ``differences``
compares them with our lexer's. Shared by ``test_lexer.py`` and the fuzzing checks.
"""

from __future__ import annotations

import re

from hipify.lexing.lexer import lex
from hipify.model import Span

_ARGS = ["-x", "c++", "-std=c++17", "-nostdinc", "-nostdinc++", "-fsyntax-only", "-w"]
_NAME = "lexed.cpp"
# clang starts a token at the line splices before it (``\\<newline>"a"``): not part of it here
_LEADING_SPLICES = re.compile(r"(?:\\[ \t\f\v]*(?:\r\n|\n\r|[\r\n]))*")


def usable() -> tuple[bool, str]:
    try:
        import clang.cindex as ci

        ci.Index.create()
    except Exception as exc:  # no libclang: the tests that need it skip with this reason
        return False, f"libclang unavailable: {exc}"
    return True, ""


def _is_quoted(spelling: str) -> bool:
    """A string or character literal (with an encoding or raw prefix), not a number (``1'000``)."""
    head = spelling.lstrip("uUL8R")
    return head[:1] in ("'", '"') and not spelling[:1].isdigit()


def _may_be_quoted(spelling: str) -> bool:
    """Can this token's text be a string or character literal (clang's spelling has its splices, which the text's
    own span is checked for afterwards)?"""
    return "'" in spelling or '"' in spelling


def clang_spans(text: str) -> tuple[tuple[Span, ...], tuple[Span, ...]]:
    """(comments, literals) of ``text`` as clang's lexer reads them, in character offsets.

    An unterminated block comment gives no token (clang drops the rest of the file): it is
    returned as a comment to the end, as our lexer reads it, so the two can be compared."""
    import clang.cindex as ci

    data = text.encode("utf-8", "surrogatepass")
    tu = ci.Index.create().parse(_NAME, args=_ARGS, unsaved_files=[(_NAME, data)], options=0)
    chars = _char_offsets(text, data)  # byte offset -> character offset
    comments: list[Span] = []
    literals: list[Span] = []
    last = 0
    token = None
    # (a token's place is asked only of comments and quoted tokens, and of the last one: each question is a call
    # into libclang, and the long fuzz run asks it of every token of 400,000 texts)
    for token in tu.get_tokens(extent=tu.get_extent(_NAME, (0, len(data)))):
        kind = token.kind
        if kind == ci.TokenKind.COMMENT:
            extent = token.extent
            start, end = extent.start.offset, extent.end.offset
            comments.append((_LEADING_SPLICES.match(text, chars[start]).end(), chars[end]))
        elif kind in (ci.TokenKind.LITERAL, ci.TokenKind.PUNCTUATION) and _may_be_quoted(token.spelling):
            extent = token.extent
            start, end = extent.start.offset, extent.end.offset
            begin = _LEADING_SPLICES.match(text, chars[start]).end()
            if _is_quoted(text[begin : chars[end]]):
                literals.append((begin, chars[end]))
    if token is not None:
        last = token.extent.end.offset
    tail = data.find(b"/*", last)
    while tail != -1 and data[last:tail].strip(b" \t\r\n\f\v\\") != b"":
        tail = -1  # something other than blanks before it: not a trailing comment
    if tail != -1:
        comments.append((chars[tail], len(text)))
    return tuple(comments), tuple(literals)


def differences(text: str) -> list[str]:
    """How our lexer's comments and literals differ from clang's ([] when they agree)."""
    ours = lex(text)
    theirs = clang_spans(text)
    problems = []
    for what, mine, reference in (("comments", ours.comments, theirs[0]), ("literals", ours.literals, theirs[1])):
        if tuple(mine) != reference:
            problems.append(
                f"{what} differ from clang's: ours {[text[s:e] for s, e in mine]!r}, "
                f"clang {[text[s:e] for s, e in reference]!r}"
            )
    return problems


# Headers the fuzzed texts include, given to clang empty (no include path is searched: every include resolves).
_FUZZ_HEADERS = ("cuda_runtime.h", "cuda.h", "cublas_v2.h", "vector", "cuda_pipeline.h", "a.h", "b.h")
_HEADER_DIR = "/fuzz-include"
# A conditional directive anywhere: clang then records only the taken branches' directives.
_CONDITIONAL = re.compile(r"#\s*(?:if|el|endif)|\?\?=")
_DIRECTIVE_WORD = re.compile(r"#(?:[ \t\f\v]|\\[ \t\f\v]*(?:\r\n|\n\r|[\r\n]))*(include|define)(?![\w$])")
_TO_NAME = re.compile(r"(?:[ \t\f\v]|\\[ \t\f\v]*(?:\r\n|\n\r|[\r\n]))*")


def clang_directives(text: str) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """(where each ``#include`` starts, where the name of each ``#define`` starts) as clang's preprocessor reads
    ``text`` (its detailed record), in character offsets; None when the text holds a conditional directive (clang
    records only the taken branches') or clang stops early."""
    if _CONDITIONAL.search(text):
        return None
    import clang.cindex as ci

    data = text.encode("utf-8", "surrogatepass")
    headers = [(f"{_HEADER_DIR}/{h}", b"") for h in _FUZZ_HEADERS]
    tu = ci.Index.create().parse(
        _NAME,
        args=[*_ARGS, "-I", _HEADER_DIR, "-ferror-limit=0"],
        unsaved_files=[(_NAME, data), *headers],
        options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD,
    )
    if any(d.severity >= ci.Diagnostic.Fatal for d in tu.diagnostics):
        return None
    chars = _char_offsets(text, data)
    includes, defines = [], []
    for cursor in tu.cursor.get_children():
        location = cursor.extent.start
        if location.file is None or location.file.name != _NAME:
            continue
        at = _LEADING_SPLICES.match(text, chars[location.offset]).end()  # (clang starts at the splices before)
        if cursor.kind == ci.CursorKind.INCLUSION_DIRECTIVE:
            includes.append(at)
        elif cursor.kind == ci.CursorKind.MACRO_DEFINITION:
            defines.append(at)
    return tuple(sorted(includes)), tuple(sorted(defines))


def _char_offsets(text: str, data: bytes) -> list[int]:
    if len(data) == len(text):
        return list(range(len(text) + 1))  # (ASCII: one byte a character)
    chars = [0] * (len(data) + 1)
    at = 0
    for i, ch in enumerate(text):
        for k in range(len(ch.encode("utf-8", "surrogatepass"))):
            chars[at + k] = i
        at += len(ch.encode("utf-8", "surrogatepass"))
    chars[len(data)] = len(text)
    return chars


def our_directives(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The same as :func:`clang_directives`, from our lexer's directive lines."""
    lexed = lex(text)
    includes, defines = [], []
    for start, _ in lexed.directives:
        m = _DIRECTIVE_WORD.match(lexed.masked, start)
        if m is None:
            continue
        if m.group(1) == "include":
            if lexed.text[_TO_NAME.match(lexed.masked, m.end()).end() :][:1] in ('"', "<"):
                includes.append(start)  # (one naming no header is an error clang records nothing for)
        else:
            defines.append(_TO_NAME.match(lexed.masked, m.end()).end())
    return tuple(includes), tuple(defines)


def directive_differences(text: str) -> list[str]:
    """How our lexer's ``#include`` and ``#define`` lines differ from those clang's preprocessor reads ([] when they
    agree, or when clang's reading is not comparable: see :func:`clang_directives`)."""
    theirs = clang_directives(text)
    if theirs is None:
        return []
    ours = our_directives(text)
    problems = []
    for what, mine, reference in (("#include", ours[0], theirs[0]), ("#define", ours[1], theirs[1])):
        if mine != reference:
            problems.append(f"{what} lines differ from clang's: ours at {list(mine)}, clang at {list(reference)}")
    return problems
