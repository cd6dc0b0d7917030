"""The regex engine's lexer: literals, comments, directives, and never raising."""

from __future__ import annotations

import pytest

from hipify.lexing.conditionals import value_without
from hipify.lexing.lexer import Kind, iter_tokens, lex


def spans(text: str, which: str) -> list[str]:
    lexed = lex(text)
    return [text[s:e] for s, e in getattr(lexed, which)]


@pytest.mark.parametrize(
    "text, comments",
    [
        ("a // c\nb", ["// c"]),
        ("a /* c */ b", ["/* c */"]),
        ("a /* multi\nline */ b", ["/* multi\nline */"]),
        ("// continued \\\nstill comment\ncode", ["// continued \\\nstill comment"]),
        ("a /* never closed", ["/* never closed"]),
        ('"// not a comment" x', []),
        ("'/' / 2 // real", ["// real"]),
        ("a/b/c", []),
    ],
)
def test_comments(text: str, comments: list[str]) -> None:
    assert spans(text, "comments") == comments


@pytest.mark.parametrize(
    "text, literals",
    [
        ('x = "a\\"b";', ['"a\\"b"']),
        ('x = u8"a" L"b" u"c" U"d";', ['u8"a"', 'L"b"', 'u"c"', 'U"d"']),
        ('x = R"(a "quoted" )";', ['R"(a "quoted" )"']),
        ('x = R"d(a )" b)d";', ['R"d(a )" b)d"']),
        ('x = LR"(w)" u8R"(u)";', ['LR"(w)"', 'u8R"(u)"']),
        ("c = 'x'; d = '\\''; e = L'y';", ["'x'", "'\\''", "L'y'"]),
        ("n = 1'000'000;", []),  # digit separators are not char literals
        ('fooL"x"', ['"x"']),  # an identifier ending in L is not a prefix
        ('s = "never closed\nnext();', ['"never closed']),
        ("c = 'never closed\nnext();", ["'never closed"]),
        ('s = R"(never closed', ['R"(never closed']),
        ('s = "line \\\ncontinued";', ['"line \\\ncontinued"']),
    ],
)
def test_literals(text: str, literals: list[str]) -> None:
    assert spans(text, "literals") == literals


@pytest.mark.parametrize(
    "text, directives",
    [
        ("#include <a>\nint x;", ["#include <a>"]),
        ("  #  define X 1\n", ["#  define X 1"]),
        ("#define X \\\n  1 + \\\n  2\nint y;", ["#define X \\\n  1 + \\\n  2"]),
        ("#define X \\\r\n  1\r\nint y;", ["#define X \\\r\n  1"]),
        ("#pragma once\r\n", ["#pragma once"]),
        ("x = a # b;", []),
        ("/* #define NOT */ int x;", []),
        ('s = R"(\n#define NOT_EITHER)";', []),
        ("\ufeff#include <a>\n", ["#include <a>"]),
        ("#a\n#b\n#c", ["#a", "#b", "#c"]),
    ],
)
def test_directives(text: str, directives: list[str]) -> None:
    assert spans(text, "directives") == directives


def test_masked_keeps_length_and_code() -> None:
    text = "f(\"a)b\", '('); /* ) */ g(1) // )\n"
    lexed = lex(text)
    assert len(lexed.masked) == len(text)
    assert lexed.masked.count(")") == 2 and lexed.masked.count("(") == 2
    assert "f(" in lexed.masked and "g(1)" in lexed.masked


def test_tokens() -> None:
    text = 'k<<<g, b>>>(x->y, ns::z); // c\n#define A "s"\n'
    tokens = [(t.kind, t.text, t.in_directive) for t in iter_tokens(text)]
    assert (Kind.PUNCT, "<<<", False) in tokens
    assert (Kind.PUNCT, ">>>", False) in tokens
    assert (Kind.PUNCT, "->", False) in tokens
    assert (Kind.PUNCT, "::", False) in tokens
    assert (Kind.COMMENT, "// c", False) in tokens
    assert (Kind.IDENT, "A", True) in tokens
    assert (Kind.STRING, '"s"', True) in tokens
    starts = [t.start for t in iter_tokens(text)]
    assert starts == sorted(starts)


def test_number_tokens() -> None:
    kinds = [(t.kind, t.text) for t in iter_tokens("x = 1'000 + 0x1fULL + 1.5e-3f;")]
    assert (Kind.NUMBER, "1'000") in kinds
    assert (Kind.NUMBER, "0x1fULL") in kinds
    assert (Kind.NUMBER, "1.5e-3f") in kinds


@pytest.mark.parametrize("text", ["", "\\", "/", "/*", "'", '"', 'R"', 'R"(', "#", "\\\n#", "u8", "'\\", "\r\n\r"])
def test_never_raises_on_fragments(text: str) -> None:
    lexed = lex(text)
    assert len(lexed.masked) == len(text)
    list(iter_tokens(text))


@pytest.mark.parametrize(
    ("condition", "value"),
    [
        ("CUDART_VERSION >= 11000", False),
        ("CUDART_VERSION < 11000", True),
        ("!(__CUDA_ARCH__ >= 700) && 1", True),
        ("__CUDA_ARCH__ >= 700 || CUDART_VERSION >= 12000", False),
        ("defined(CUDART_VERSION)", None),  # defined() is the translation's business, not a value
        ("OTHER > 1", None),  # a name that may be defined
        ("1 / 0", None),
        ("1 << 2", None),  # not in the small arithmetic understood: unknown, never wrong
    ],
)
def test_conditions_with_macros_hip_never_defines(condition: str, value: bool | None) -> None:
    assert value_without(condition, frozenset({"CUDART_VERSION", "__CUDA_ARCH__"})) is value
