"""The regex engine's lexer: literals, comments, directives, and never raising; clang's lexer as the reference."""

from __future__ import annotations

import os
import random
import re

import clang_lexing
import pytest
from fuzzing import soup
from hypothesis import given, settings
from hypothesis import strategies as st

from hipify.lexing.conditionals import CondDirective, skipped_with_derived, value_without
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
        ("1 << 2", True),
        # three-valued: the known half decides where the other cannot change the result
        ("CUDART_VERSION >= 12080 && defined(__linux__)", False),
        ("CUDART_VERSION < 12080 || OTHER > 1", True),
        ("CUDART_VERSION >= 12080 || OTHER > 1", None),
        ("defined(HIPIFY_ENABLE_cuFoo) && OTHER", False),  # code the translation left out stays out
    ],
)
def test_conditions_with_macros_hip_never_defines(condition: str, value: bool | None) -> None:
    assert value_without(condition, frozenset({"CUDART_VERSION", "__CUDA_ARCH__"})) is value


def _directives(text: str) -> list[CondDirective]:
    out = []
    at = 0
    for line in text.splitlines(keepends=True):
        m = re.match(r"\s*#\s*(\w+)\s*(.*?)\s*$", line)
        if m:
            out.append(CondDirective(at, at + len(line.rstrip("\n")), m.group(1), m.group(2)))
        at += len(line)
    return out


SWITCHES = """#if CUDART_VERSION >= 12080 && defined(__linux__)
#define HAS_A 1
#endif
#if defined(HAS_A) && CUDART_VERSION >= 12090
#define HAS_B 1
#endif
#if defined(HAS_A)
a_only();
#endif
#ifdef HAS_B
b_only();
#endif
#if HAS_A
a_value();
#endif
#ifndef HAS_A
without_a();
#endif
"""


def test_switches_derived_from_skipped_tests_are_undefined() -> None:
    text = SWITCHES
    spans = skipped_with_derived(_directives(text), frozenset({"CUDART_VERSION"}))
    skipped = "".join(text[s:e] for s, e in spans)
    for body in ("#define HAS_A", "#define HAS_B", "a_only", "b_only", "a_value"):
        assert body in skipped
    assert "without_a" not in skipped


def test_a_switch_defined_outside_the_skipped_code_stays_unknown() -> None:
    text = SWITCHES + "#ifdef CONFIG\n#define HAS_A 1\n#endif\n"
    spans = skipped_with_derived(_directives(text), frozenset({"CUDART_VERSION"}))
    skipped = "".join(text[s:e] for s, e in spans)
    assert "a_only" not in skipped and "a_value" not in skipped
    assert "#define HAS_A 1\n#endif\n#if defined(HAS_A)" not in skipped


# --- the lexer's edges, with clang's lexer as the reference -----------------------------------------------------

# (text, comments, literals) as clang reads them; each also checked against libclang itself below.
CLANG_READS = [
    # an empty character literal is one (invalid) token: nothing after it is inside a literal
    ("c = ''; x /* y */", ["/* y */"], ["''"]),
    # a quote left open ends at its line end: a '/*' inside it opens no comment
    ("a = '/* x;\nf(); // */\n", ["// */"], ["'/* x;"]),
    # a quote after a number is a digit separator only before a letter, digit or '_'
    ("n = 1'/*'; f(); /* c */", ["/* c */"], ["'/*'"]),
    ("n = 1''; m = 1'000'000;", [], ["''"]),
    ("n = 0x1'f; m = 1.5e+1'0;", [], []),
    ("n = 1'u8'x' ;", [], ["' ;"]),  # u8 continues the number: no prefix
    ("n = 1'\\\nR\"x\"; c = 'd';", [], ['"x"', "'d'"]),  # across a splice too: R is the number's, no raw string
    # a name goes on across a line splice: the letters after it are the name's, not a literal's prefix
    ('x = blockIdx\\\r\nu8"s"; y = a\\ \nL"t"; z = (\\\nu8"v");', [], ['"s"', '"t"', 'u8"v"']),
    ("n = x.1'2;", [], []),  # .1'2 is a number after the name x
    # a line splice on either side of the quote joins the number: the quote is a digit separator
    ("n = 1'\\\nC; m = 1\\\n'x; c = 'd';", [], ["'d'"]),
    ("n = 0\\\rL'c; d = 'e';", [], ["'e'"]),  # 0, a splice, L: one number, which the quote goes on
    # a lone CR is a line end: it ends a // comment and an unterminated literal
    ("// c\rf();\r", ["// c"], []),
    ('s = "a\rb";\r', [], ['"a', '";']),
    ("c = 'a\r'b';", [], ["'a", "'b'"]),
    # a backslash at the end of the file, or before a line end with blanks between (a splice, for clang)
    ("c = '\\", [], ["'\\"]),
    ("// c \\  \nstill comment\nx", ["// c \\  \nstill comment"], []),
    ("/\\\n/ c\nx", ["/\\\n/ c"], []),
    ("/\\\n* c *\\\n/ x", ["/\\\n* c *\\\n/"], []),
    ("s = 'a\\\\\r\n\n", [], ["'a\\\\\r\n"]),  # the escaped character comes after the splice: a line end
    # ud-suffixes: '_' or a non-ASCII name character, and the standard string suffixes
    ('s = "a"_x + "b"sv + "c"s;', [], ['"a"_x', '"b"sv', '"c"s']),
    ("c = 'c'é + L'd'_u;", [], ["'c'é", "L'd'_u"]),
    ('printf("%"PRIu64"\\n", n);', [], ['"%"', '"\\n"']),  # an old macro after a literal is no suffix
    # a suffix after a line splice (LF or a lone CR) is still the literal's; a splice before no suffix is not
    ("x = 'é '\\\r名前;", [], ["'é '\\\r名前"]),
    ('s = "ab"\\\ns + "c"\\\n\\\r\n_x;', [], ['"ab"\\\ns', '"c"\\\n\\\r\n_x']),
    ("c = 'a'\\\n; k = 'b'_k\\\n m;", [], ["'a'", "'b'_k"]),
    # a standard string suffix is read up to the first character that is no ASCII name character; the
    # suffix then takes the name characters that follow
    ('s = "s"sv名前 + "t"s$x + "u"msé + "v"mins;', [], ['"s"sv名前', '"t"s', '"u"msé', '"v"']),
    # non-ASCII names: a prefix letter at the end of a name is no prefix
    ("xéL'a' é'b'", [], ["'a'", "'b'"]),
    # R prefixes strings alone: before a character literal it is a name (and an empty literal is one token)
    ("x = R'a' + LR'b' + u8R'c' + u8'd';", [], ["'a'", "'b'", "'c'", "u8'd'"]),
    ("c = l''cudaX; d = R''cudaX; e = L''cudaX;", [], ["''", "''", "L''"]),
    ("c = '\\\n'\\\r_x;", [], ["'\\\n'"]),  # empty but for a line splice: still no suffix after it
    # a raw string's delimiter may hold quotes; one with a character it may not hold (a blank, '$', a non-ASCII
    # letter), or longer than 16, makes no raw string: an invalid token up to the next quote, on whatever line
    ('s = R""k<<<1,2>>>(x)"k<<<1,2>>>";', [], ['R""k<<<1,2>>>(x)"k<<<1,2>>>"']),
    ('s = R"$(x")$"; t = 1;', [], ['R"$(x"', '"; t = 1;']),
    ('s = R"a b(x")a b"; t = 1;', [], ['R"a b(x"', '"; t = 1;']),
    ('s = R"é(x")é"; t = 1;', [], ['R"é(x"', '"; t = 1;']),
    ('s = R"abcdefghijklmnopq(x")abcdefghijklmnopq"; t = 1;', [], ['R"abcdefghijklmnopq(x"', '"; t = 1;']),
    ('s = R"abcdefghijklmnop(x")abcdefghijklmnop";', [], ['R"abcdefghijklmnop(x")abcdefghijklmnop"']),
    ('s = R"\rcudaX;\ny = "z";', [], ['R"\rcudaX;\ny = "', '";']),
    ('s = R"\rcudaX;\n', [], ['R"\rcudaX;\n']),
    # a lone CR ends an unterminated literal; a splice made with one goes on with a // comment
    ("x = '\rcudaX;", [], ["'"]),
    ("//\\\rcudaX\nint y;", ["//\\\rcudaX"], []),
    ("// c\\\r\rcudaX\n", ["// c\\\r"], []),
]


@pytest.mark.parametrize("text, comments, literals", CLANG_READS)
def test_edges_read_as_clang_reads_them(text: str, comments: list[str], literals: list[str]) -> None:
    assert spans(text, "comments") == comments
    assert spans(text, "literals") == literals


@pytest.mark.clang
@pytest.mark.parametrize("text", [case[0] for case in CLANG_READS])
def test_edges_agree_with_libclang(text: str) -> None:
    usable, reason = clang_lexing.usable()
    if not usable:
        pytest.skip(reason)
    assert clang_lexing.differences(text) == []


@pytest.mark.parametrize(
    "text, directives",
    [
        ("x;\r#define A 1\r#include <a>\r", ["#define A 1", "#include <a>"]),
        ("x;\r\n#define A 1\n#define B \\\r  2\rint y;", ["#define A 1", "#define B \\\r  2"]),
        ("#define A \\  \n  1\nx", ["#define A \\  \n  1"]),  # blanks between a splice's backslash and line end
        ("#define A \\\\\nx", ["#define A \\\\\nx"]),  # the last backslash splices
    ],
)
def test_directives_end_where_clang_ends_them(text: str, directives: list[str]) -> None:
    assert spans(text, "directives") == directives


def test_digit_separators_are_masked_as_part_of_the_number() -> None:
    lexed = lex("a = 1'000 + 1'k;")
    assert lexed.masked == "a = 1_000 + 1_k;"
    assert [t.text for t in iter_tokens("a = 1'000;") if t.kind is Kind.NUMBER] == ["1'000"]


@pytest.mark.clang
@settings(max_examples=int(os.environ.get("HIPIFY_FUZZ_EXAMPLES", "200")) // 2, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_lexer_agrees_with_libclang_on_token_soups(seed: int) -> None:
    usable, reason = clang_lexing.usable()
    if not usable:
        pytest.skip(reason)
    text = soup(random.Random(seed), size=16)
    assert clang_lexing.differences(text) == [], text


def test_the_branches_whose_being_taken_hangs_on_a_condition() -> None:
    from hipify.lexing.conditionals import bodies_after
    from hipify.lexing.text_facts import directives_of

    text = "#if A\nx\n#if CUDART_VERSION < 1\ny\n#else\nz\n#endif\nw\n#elif B\nv\n#endif\n#if Q\n#elif CUDA_VERSION\nu\n#else\nk"
    spans = bodies_after(directives_of(text, lex(text)), lambda directive: "CUDA" in directive.argument)
    assert [text[s:e] if e >= 0 else text[s:] for s, e in spans] == ["\ny\n", "\nz\n", "\nu\n", "\nk"]
