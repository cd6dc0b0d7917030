"""Three shapes the lexer read otherwise than clang, found by fuzzing against clang's reading: a '#' after a line
splice that ends a line of code begins no directive; an unused cuda_pipeline.h is decided the same by the first
and the second translation; a name qualified by a deleted macro (``CUBLASAPI ::cuda::std::x``) is read as the
compiler reads it, so the second translation rewrites nothing."""

from __future__ import annotations

import pytest
from clang_lexing import clang_directives, differences, directive_differences, usable

from hipify.lexing.lexer import lex
from hipify.lexing.text_facts import extract_facts
from hipify.options import Options
from hipify.translation.api import translate

clang = pytest.mark.skipif(not usable()[0], reason=usable()[1] or "libclang usable")
ENGINES = ["regex", "clang"]

SPLICED = [
    'int x = !\\\n#include "cuda.h"\n;\n',
    "int y = 1 \\\r\n#define M cudaFree\n;\n",
    'a \\\n\\\n  #include "cuda.h"\n',  # two splices: still the same logical line
]
# a splice alone on its line joins nothing before the '#': that one is a directive
DIRECTIVE_AFTER_SPLICE_LINE = 'int a;\n\\\n#include "cuda.h"\n'


@pytest.mark.parametrize("text", SPLICED)
def test_a_hash_after_a_splice_ending_code_begins_no_directive(text: str) -> None:
    assert lex(text).directives == ()


def test_a_hash_after_a_line_holding_only_a_splice_begins_a_directive() -> None:
    assert [DIRECTIVE_AFTER_SPLICE_LINE[s:e] for s, e in lex(DIRECTIVE_AFTER_SPLICE_LINE).directives] == [
        '#include "cuda.h"'
    ]


@clang
@pytest.mark.parametrize("text", [*SPLICED, DIRECTIVE_AFTER_SPLICE_LINE])
def test_directive_lines_are_clangs(text: str) -> None:
    assert clang_directives(text) is not None
    assert directive_differences(text) == []
    assert differences(text) == []  # the include's name is a string literal to clang: ours too


@pytest.mark.parametrize("engine", ENGINES)
def test_the_string_after_a_spliced_hash_is_left_as_written(engine: str) -> None:
    text = SPLICED[0]
    out = translate(text, "t.cu", Options(engine=engine, use_cache=False)).text
    assert '!\\\n#include "cuda.h"\n' in out
    assert translate(out, "t.cu", Options(engine=engine, use_cache=False)).text == out


PIPELINE = [
    "#include <cuda_pipeline.h>\ncuda::std::int32_t x;\n",
    "#include <cuda_pipeline.h>\ncuda :: std :: int32_t x;\n",
    "#include <cuda_pipeline.h>\nCUBLASAPI ::cuda::std::int32_t x;\n",
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("text", PIPELINE)
def test_an_unused_pipeline_header_is_decided_alike_by_both_translations(engine: str, text: str) -> None:
    options = Options(engine=engine, use_cache=False)
    first = translate(text, "t.cu", options).text
    assert "/* hipify-py: HIP has no cuda_pipeline.h and nothing here uses it" in first
    assert translate(first, "t.cu", options).text == first


# The token before a directive line qualifies nothing after it: ``::cuda::std::`` there is global (and becomes
# ``::std::``), so the header is unused by the first translation as by the second.
ACROSS_A_DIRECTIVE = [
    "int x =\n#include <cuda_pipeline.h>\n::cuda::std::int32_t y;\n",
    "#include <cuda_pipeline.h>\n#include <vector>\n::cuda::std::int32_t x;\n",
    "#include <cuda_pipeline.h>\n#if X\n::cuda::std::int32_t x;\n#endif\n",
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("text", ACROSS_A_DIRECTIVE)
def test_a_name_after_a_directive_line_is_qualified_by_nothing_before_it(engine: str, text: str) -> None:
    options = Options(engine=engine, use_cache=False)
    first = translate(text, "t.cu", options).text
    assert "/* hipify-py: HIP has no cuda_pipeline.h and nothing here uses it" in first
    assert "::std::int32_t" in first and "cuda::" not in first
    assert translate(first, "t.cu", options).text == first


@pytest.mark.parametrize("engine", ENGINES)
def test_an_unused_pipeline_header_that_would_join_code_as_a_comment_stays(engine: str) -> None:
    """As a comment, the include would make ``cub ::x`` of the tokens around its line: a qualified name the next
    translation renames."""
    options = Options(engine=engine, use_cache=False)
    first = translate("cub\n#include <cuda_pipeline.h>\n::x;\n", "t.cu", options).text
    assert "#include <cuda_pipeline.h>\n::x;" in first
    assert translate(first, "t.cu", options).text == first


# A branch holding only an unused header HIP lacks holds nothing HIP lacks: the header becomes a comment, so the
# condition is decided by the first translation as by the second, which reads that comment.
IN_A_DECIDED_BRANCH = [
    ("#if __CUDA_ARCH__>0\n#include <cuda_pipeline.h>\n#endif\n", "#if defined(__HIP_DEVICE_COMPILE__)\n"),
    ("#if CUDART_VERSION >= 11000\n#include <cuda_pipeline.h>\n#endif\nint x;\n", "#if 1\n"),
    ("#if CUDART_VERSION < 11000\nint y;\n#else\n#include <cuda_pipeline.h>\n#endif\n", "#if 0\n"),
    # a directive line before it joins nothing to the code after it, whatever its last token (0, then ')')
    ("#if __CUDA_ARCH__>0\n#include<cuda_pipeline.h>\n(x);\n#endif\n", "#if defined(__HIP_DEVICE_COMPILE__)\n"),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("text", "condition"), IN_A_DECIDED_BRANCH)
def test_an_unused_pipeline_header_keeps_no_condition_as_written(engine: str, text: str, condition: str) -> None:
    options = Options(engine=engine, use_cache=False)
    first = translate(text, "t.cu", options).text
    assert condition in first
    assert "/* hipify-py: HIP has no cuda_pipeline.h and nothing here uses it" in first
    assert translate(first, "t.cu", options).text == first


def test_a_used_pipeline_header_keeps_its_branch_from_being_taken() -> None:
    """Used, it stays an include HIP lacks: no build that would compile its branch is chosen."""
    text = "#if __CUDA_ARCH__ >= 800\n#include <cuda_pipeline.h>\n#endif\ncuda::pipeline<cuda::thread_scope_block> p;\n"
    first = translate(text, "t.cu", Options(use_cache=False)).text
    assert "#if 0\n#include <cuda_pipeline.h>\n#endif\n" in first
    assert translate(first, "t.cu", Options(use_cache=False)).text == first


@pytest.mark.parametrize("engine", ENGINES)
def test_a_used_pipeline_header_stays(engine: str) -> None:
    text = "#include <cuda_pipeline.h>\ncuda::pipeline<cuda::thread_scope_block> p;\n"
    out = translate(text, "t.cu", Options(engine=engine, use_cache=False)).text
    assert "#include <cuda_pipeline.h>\n" in out


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("CUBLASAPI ::cuda::std::int32_t f();\n", " ::std::int32_t f();\n"),
        ("CUBLASAPI CUDART_CB ::cuda::std::int32_t g();\n", " ::std::int32_t g();\n"),
        ("extern CUBLASAPI ::cuda::std::int32_t h;\n", "::std::int32_t h;\n"),
    ],
)
def test_a_name_qualified_by_a_deleted_macro_is_read_as_the_compiler_reads_it(
    engine: str, text: str, expected: str
) -> None:
    options = Options(engine=engine, use_cache=False)
    first = translate(text, "t.cu", options).text
    assert first.endswith(expected)
    assert translate(first, "t.cu", options).text == first


@clang
@pytest.mark.parametrize(
    "text",
    [*PIPELINE, *ACROSS_A_DIRECTIVE, *(t for t, _ in IN_A_DECIDED_BRANCH), "CUBLASAPI ::cuda::std::int32_t f();\n"],
)
def test_clang_reads_these_texts_and_their_translations_as_our_lexer(text: str) -> None:
    out = translate(text, "t.cu", Options(use_cache=False)).text
    for t in (text, out):
        assert differences(t) == [] and directive_differences(t) == []


# A launch's kernel expression is read as the compiler reads it: a qualifier or an object at the end of the line
# before is part of it, a directive line's tokens are not (``#include <x.h>`` then ``::k<<<...>>>``).
KERNELS = [
    ("::cuda::std::\ncuda :: std :: k<<<1, 2>>>(a);\n", "::cuda::std::\ncuda :: std :: k"),
    ("ns::\n  k<<<1, 2>>>(a);\n", "ns::\n  k"),
    ("p->\nk<<<1, 2>>>(a);\n", "p->\nk"),
    ("#include <vector>\n::k<<<1, 2>>>(a);\n", "::k"),
    ("#define Q a::\nk<<<1, 2>>>(a);\n", "k"),
    ("ns::\n#if X\nk<<<1, 2>>>(a);\n#endif\n", "k"),
]


@pytest.mark.parametrize(("text", "kernel"), KERNELS)
def test_a_kernel_expression_spans_lines_but_no_directive(text: str, kernel: str) -> None:
    (launch,) = extract_facts(text).launches
    assert text[launch.kernel[0] : launch.kernel[1]] == kernel


@pytest.mark.parametrize("engine", ENGINES)
def test_a_launch_as_a_call_keeps_the_qualifier_of_the_line_before(engine: str) -> None:
    options = Options(engine=engine, use_cache=False, hip_kernel_syntax=True)
    first = translate("::cuda::std::\ncuda :: std :: k<<<1, 2>>>(a);\n", "t.cu", options).text
    assert "hipLaunchKernelGGL(::std::\ncuda :: std :: k, dim3(1), dim3(2), 0, 0, a);" in first
    assert translate(first, "t.cu", options).text == first


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("launch", ["CUDA_CB::k<<<g, s>>>();", "::ns::k<float><<<1, 1>>>(p);"])
def test_an_unused_header_before_a_launch_as_a_call_is_commented_out(engine: str, launch: str) -> None:
    """The launcher's name follows the include's line: as a comment, it joins ``l`` to no ``::``."""
    options = Options(engine=engine, use_cache=False, hip_kernel_syntax=True)
    first = translate(f"l\n#include <cuda_pipeline.h>\n{launch}\n", "t.cu", options).text
    assert "/* hipify-py: HIP has no cuda_pipeline.h and nothing here uses it" in first
    assert "hipLaunchKernelGGL(" in first
    assert translate(first, "t.cu", options).text == first
