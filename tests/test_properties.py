"""Property tests: random C++-ish text never crashes the engine; comments and strings survive
byte for byte; translating twice changes nothing more; files without CUDA come back unchanged."""

from __future__ import annotations

from pathlib import Path

from conftest import fixture_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hipify.knowledge.table import MappingTable
from hipify.lexing.lexer import iter_tokens, lex
from hipify.lexing.text_facts import extract_facts
from hipify.model import SourceFile
from hipify.options import Options
from hipify.regex_mode.engine import run
from hipify.translation.api import translate

SMALL = fixture_table()  # module level: hypothesis would print a fixture argument in full

FRAGMENTS = [
    "cudaMalloc",
    "cudaFree",
    "cudaMemcpyToSymbol",
    "cub",
    "::",
    "cudaStream_t",
    "__shfl_xor_sync",
    "k",
    "<<<",
    ">>>",
    "<",
    ">",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ";",
    ".",
    "->",
    "#",
    "#include ",
    "#define X ",
    "#if 0\n",
    "#endif\n",
    "#else\n",
    "<cuda_runtime.h>",
    '"cuda.h"',
    "\\\n",
    "\n",
    "\r\n",
    " ",
    "\t",
    "//",
    "/*",
    "*/",
    '"',
    "'",
    'R"(',
    ')"',
    "u8",
    "L",
    "1'000",
    "0x1f",
    "template",
    "__global__",
    "void",
    "int",
    "dim3",
    "hipify-py: off",
    "hipify-py: on",
    "hipify-py: ignore",
    "\ufeff",
    "é",
    "$",
    "0xffffffff",
    "#define FULL_MASK 0xffffffff\n",
    "FULL_MASK",
    "__syncwarp",
    "CUDART_CB",
    "cudaFuncSetAttribute",
    "reinterpret_cast<const void*>",
    "namespace cb = ",
    "__fadd_rz",
    "#if X\n",
    "#elif Y\n",
    "cudaThreadSynchronize",
]
soup = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=4), max_size=60).map("".join)
options = st.builds(
    Options,
    engine=st.just("regex"),
    hip_kernel_syntax=st.booleans(),
    roc=st.booleans(),
    skip_excluded_blocks=st.booleans(),
    rocm_version=st.sampled_from([(5, 7), (6, 1), (6, 4)]),
)
SETTINGS = settings(
    max_examples=int(__import__("os").environ.get("HIPIFY_HYPOTHESIS_EXAMPLES", "300")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@SETTINGS
@given(soup)
def test_lexer_never_raises_and_keeps_length(text: str) -> None:
    lexed = lex(text)
    assert len(lexed.masked) == len(text)
    for start, end in lexed.comments + lexed.literals + lexed.directives:
        assert 0 <= start <= end <= len(text)
    tokens = list(iter_tokens(text, lexed))
    assert all(text[t.start : t.end] == t.text for t in tokens)


@SETTINGS
@given(soup)
def test_facts_never_raise(text: str) -> None:
    facts = extract_facts(text)
    for ident in facts.identifiers:
        assert text[ident.start : ident.end] == ident.name


@SETTINGS
@given(soup, options)
def test_engine_never_reports_internal_errors(text: str, opts: Options) -> None:
    result = run(SourceFile("a.cu", text), SMALL, opts)
    assert not [d for d in result.diagnostics if d.code in ("HPY202", "HPY204")], result.diagnostics


def _protected(text: str) -> list[str]:
    lexed = lex(text)
    return [text[s:e] for s, e in lexed.comments + lexed.literals]


@SETTINGS
@given(soup, options)
def test_comments_and_strings_are_byte_identical(text: str, opts: Options) -> None:
    out = translate(text, path="a.cu", options=opts, table=SMALL).text
    before = _protected(text)
    after = _protected(out)
    # Every comment and literal survives unchanged and in order (inserted lines add none).
    assert [p for p in after if p in before] == before or sorted(before) == sorted(after)
    assert all(p in after for p in before)


@SETTINGS
@given(soup, options)
def test_second_run_changes_nothing(text: str, opts: Options) -> None:
    once = translate(text, path="a.cu", options=opts, table=SMALL).text
    twice = translate(once, path="a.cu", options=opts, table=SMALL).text
    assert twice == once


plain_cpp = st.lists(
    st.sampled_from(
        [
            "int",
            "main",
            "(",
            ")",
            "{",
            "}",
            "return",
            "0",
            ";",
            " ",
            "\n",
            "std::vector<int>",
            "#include <vector>\n",
            "// comment\n",
            '"text"',
            "x",
            "=",
            "+",
            "min",
            "max",
            "template <typename T>",
            "class A",
            "::",
        ]
    ),
    max_size=50,
).map("".join)


@SETTINGS
@given(plain_cpp)
def test_files_without_cuda_are_byte_identical(table: MappingTable, text: str) -> None:
    for path in ("a.cpp", "a.h", "a.hpp", "a.cc"):
        result = translate(text, path=path, options=Options(engine="regex"), table=table)
        assert result.text == text and result.edits == ()


def test_corpus_like_plain_files_are_byte_identical(table: MappingTable) -> None:
    text = Path(__file__).read_text(encoding="utf-8")  # Python is not CUDA, but it is text
    assert translate(text, path="x.h", options=Options(engine="regex"), table=table).text == text
