"""Fuzzing both engines over token soups (a bounded share; ``bench/fuzz.py`` runs 100,000+).

Soups mix CUDA names, comments, string and character literals, directives, launches and line
splices (``fuzzing.FRAGMENTS``); programs are well-formed files of the same material, where the
parser finds no errors and the engines must agree on rename-only translations. Checks: no
exception or internal error, comments and literals byte for byte, idempotence, agreement.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace

import clang_lexing
import pytest
from fuzzing import failures, program, soup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hipify.knowledge.table import load_table
from hipify.options import Options
from hipify.translation.api import translate
from hipify.translation.engines import clang_status

TABLE = load_table()
EXAMPLES = int(os.environ.get("HIPIFY_FUZZ_EXAMPLES", "200"))
options = st.builds(
    Options,
    engine=st.just("regex"),
    hip_kernel_syntax=st.booleans(),
    roc=st.booleans(),
    skip_excluded_blocks=st.booleans(),
    rocm_version=st.sampled_from([(5, 7), (6, 4)]),
    use_cache=st.just(False),
)
# A seed drives the soup (hypothesis shrinks it to the smallest failing one it finds).
seeds = st.integers(min_value=0, max_value=2**32 - 1)
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CLANG = settings(max_examples=max(5, EXAMPLES // 20), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(seeds, options)
def test_regex_engine_on_token_soups(seed: int, opts: Options) -> None:
    text = soup(random.Random(seed))
    assert failures(text, opts, TABLE) == [], text


@FUZZ
@given(seeds, options)
def test_regex_engine_on_programs(seed: int, opts: Options) -> None:
    text = program(random.Random(seed))
    assert failures(text, opts, TABLE) == [], text


def _clang(opts: Options) -> Options:
    usable, reason = clang_status()
    if not usable:
        pytest.skip(reason)
    return replace(opts, engine="clang", cuda_path="none", clang_parse="always")


@pytest.mark.clang
@CLANG
@given(seeds, options)
def test_clang_engine_on_token_soups(seed: int, opts: Options) -> None:
    text = soup(random.Random(seed))
    assert failures(text, _clang(opts), TABLE, compare=True) == [], text


@pytest.mark.clang
@CLANG
@given(seeds, options)
def test_clang_engine_on_programs_agrees_with_regex(seed: int, opts: Options) -> None:
    text = program(random.Random(seed))
    assert failures(text, _clang(opts), TABLE, compare=True) == [], text


@pytest.mark.parametrize(
    "text",
    [
        # cases the long run (bench/fuzz.py) found: deleting every calling-convention macro before a '#' on its
        # line would make that '#' start a directive, which the next translation would then read
        "x;\nCUDART_CB\tCUDART_CB #include <cuda_runtime.h>\nint y;\n",
        "x;\nCUDART_CB\tCUBLASAPI#include <cuda_runtime.h>\nint y;\n",
        # deleting it would make the word before it a qualifier (cub ::x), which the next translation renames
        "x;\n ] cudaFree cub CUBLASAPI ::#if 0\nint y;\n",
        # the macros around one are decided together: deleting the first must not change the second's neighbours
        "x;\n\t[\tCUBLASAPI\nCUDART_CB\r\n( cudaMemcpy\n",
        # a word of another line's directive is no neighbour: translation adds directive lines
        "#pragma once\n CUBLASAPI\t::\tblockIdx;\n",
        # a repeated or moved include is deleted only where that joins no code: a directive keeps the word before
        # it from the '::' after it (cub / #include / ::), and the preprocessor ignores code after the header name
        "#include<cublas.h>\ncub\n#include<cublas_v2.h>::",
        "#include<cublas.h>\ncub\n#include<cublas_v2.h>\n::",
        '#include<cuda_runtime.h>\ncub\n#include"cuda.h"::',
        '#include<cuda_runtime.h>\ncub\n#include"cuda.h"\n::',
        # a symbol argument that holds a directive line is not wrapped: HIP_SYMBOL( before its '#' made it code
        'cudaMemcpyToSymbol(\r#include"cuda.h")',
        'cudaMemcpyToSymbol(\n#include"cuda.h"\n)',
    ],
)
def test_long_run_findings_stay_fixed(text: str) -> None:
    assert failures(text, Options(engine="regex", use_cache=False), TABLE) == []


@pytest.mark.parametrize(
    "text",
    [
        # a kernel reached through an object is no name for hipLaunchKernelGGL: rewriting it moved the '->' out
        # of the expression, and the next translation renamed what the '->' had kept a member
        "p->\ncudaSuccess :: k<<<g, b, 0, s>>>();\n",
        "x;\n# cudaMemcpyHostToDevice->k /* c */ <<<1,2>>> (x, y);\n",
        "cuInit\n#include <cuda_runtime.h>\n\t->\tns::k<float><<<1,1>>>(p);\n",
        # a kernel expression that starts with a calling-convention macro: inside hipLaunchKernelGGL( the macro's
        # neighbours, and so whether it is deleted, change
        "r\rCUBLASAPI::k/**/<<<1,2>>>()",
        # ... and one the renames rule deletes (no word before it) does not keep the chevrons: a second translation
        # would rewrite the launch it leaves
        "'\nCUBLASAPI::k<<<1,1>>>()",
        "/CUBLASAPI::k<<<0,s>>>()",
        "'\nCUDART_CB::k/**/<<<1,2>>>()",
        "CUBLASAPI<<<t<<<1,1>>>()",
        # (seed 46) a qualifier at the end of the line before is the kernel's (``::cuda::std::`` / ``cuda::std::k``):
        # left out of hipLaunchKernelGGL(, the name it qualified was renamed by the next translation
        "::cuda::std::\ncuda :: std :: xk<<<1, 2>>>(a);\n",
        # ... and an unused header's include before a launch: the launcher's name follows its line, no '::'
        "l\n#include<cuda_pipeline.h>\nCUDA_CB::k<<<g,s>>>()",
        "l\n#include <cuda_pipeline.h>\n::ns::k<float><<<1,1>>>(p);\n",
    ],
)
def test_long_run_launch_findings_stay_fixed(text: str) -> None:
    assert failures(text, Options(engine="regex", use_cache=False, hip_kernel_syntax=True), TABLE) == []


# Cases of the long run (seed 46) where an unused cuda_pipeline.h was kept by the first translation and commented out
# by the second: the code after it (``::cuda::std::``, which the first renames to ``::std::``) was read as qualified
# by the token before the include's line or an ``#if X`` line, across the directive's border.
PIPELINE_FINDINGS = [
    "int\n//\\\n=\n#include <cuda_pipeline.h>\n\r::cuda::std::\n(\ncudaEvent_t\r\n#elif CUDART_VERSION < 11000\n\n/\r",
    "template <typename T> <\t'/*cudaFree\r#include <vector>\n\r\n'\r #include <cuda_pipeline.h>\n\r\n#if X\n\n\\\n"
    "\r// cudaFree(x)\n\r\n::cuda::std:: # ns::k<float><<<1,1>>>(p); // c \\\r ::\tcudaMemcpyToSymbol #if X\n\r\n"
    '"s"_x\r\n"/* cudaMemcpyToSymbol /* cudaMalloc */\r',
    # (found since: a condition left as written because its branch held the include, decided by the second)
    "#if __CUDA_ARCH__>0\n#include <cuda_pipeline.h>\n#endif\n",
    # (cases 57873 and 64001, reduced) the last token of the #if line before it read as code the comment would join
    # to a '(' after it (0 (, then ) ( once the condition is decided)
    "#if __CUDA_ARCH__>0\n#include<cuda_pipeline.h>\n(",
    "#if __CUDA_ARCH__>8\n#include<cuda_pipeline.h>\r<",
    "#if __CUDA_ARCH__>0\n#include<cuda_pipeline.h>\n::",  # (case 71805, reduced)
    # ... and the HIP runtime include the translation adds before it: no directive line the next one reads otherwise
    "cub\n#include <cuda_pipeline.h>\n::x;\n",
    "x;\n#include <cuda_runtime.h>\n#include <cuda_pipeline.h>\n::cuda::std::y;\n",
]


# The long run's cases (seed 46) with a launch rewritten as a call (their options: skip_excluded_blocks, rocm).
LAUNCH_FINDINGS = [
    (
        "cuda :: std :: x#if __CUDA_ARCH__ >= 800\n\nx''\"cudaMalloc\"#define F(x) cudaMalloc(x)\n\tk<<<g, b, 0, s>>>();\t"
        "CUBLASAPI ::cuda::std::int32_t\rblockIdxint\rcudaMemcpyToSymbol\r#include <cuda_pipeline.h>\n CUDART_CB ::cub::"
        "k<<<g, b, 0, s>>>(); R\"\rl''\r'x' #if defined(__CUDA_ARCH__) && __CUDACC_VER_MAJOR__ >= 12\n \"CUBLASAPI "
        "::cuda::std::int32_t\t::\n/* c *\\\r/\r\\\n#define E\n\r'c'\u00e9 cuda :: std :: x\rcublasHandle_t "
        "cublasHandle_t\ncudaSuccess\ncudaMemcpyHostToDevice 0xffffffff cudaGetErrorString\r\\\n __global__ns::k<float>"
        "<<<1,1>>>(p);::cuda::std::\n#endif\n\r\n#endif\n\r__global__",
        False,
        (5, 7),
    ),
    (
        "#else\nL'c'\r\n#else\n cudaSuccess\r/* c *\\\r/\n\u00e9\rcudaEvent_t\ncudaStream_t\n// splice \\\n more\n\n"
        "__global__ template <typename T>\ncudaMemcpy\t::cuda::std::\r\n/* a\n b */\r\ncuda :: std :: xk<<<1, 2>>>(a);\r"
        'cudaMemcpyToSymbol\r#define M cudaFree\n !\\\n#include "cuda.h"\n; \\ \n#include <cuda_runtime.h>\n\r'
        "k /* c */ <<<1,2>>> (x, y); '0x1'f'cuda :: std :: x\r\n/\r#include <cublas_v2.h>\n\rl'' \"cudaMalloc\"\r"
        "#pragma once\n__global__ L''",
        True,
        (6, 4),
    ),
]


@pytest.mark.parametrize(("text", "skip", "rocm"), LAUNCH_FINDINGS)
def test_long_run_findings_with_launches_as_calls_stay_fixed(text: str, skip: bool, rocm: tuple[int, int]) -> None:
    opts = Options(
        engine="regex", use_cache=False, hip_kernel_syntax=True, skip_excluded_blocks=skip, rocm_version=rocm
    )
    assert failures(text, opts, TABLE, clang_reading=clang_lexing.usable()[0]) == []


@pytest.mark.parametrize("text", PIPELINE_FINDINGS)
@pytest.mark.parametrize("launch_syntax", [False, True])
@pytest.mark.parametrize("engine", ["regex", pytest.param("clang", marks=pytest.mark.clang)])
def test_long_run_pipeline_findings_stay_fixed(text: str, launch_syntax: bool, engine: str) -> None:
    opts = Options(engine="regex", use_cache=False, hip_kernel_syntax=launch_syntax, rocm_version=(6, 4))
    if engine == "clang":
        opts = _clang(opts)
    assert failures(text, opts, TABLE, compare=engine == "clang", clang_reading=clang_lexing.usable()[0]) == []


@pytest.mark.clang
@pytest.mark.parametrize(
    "text",
    [
        # garbage the parser reads as a declaration of the second name (type CUresult) before translation, and
        # as nothing once the type is hipError_t (declared only after the HIP include translation adds)
        "CUresult CUresult \n#pragma once",
        # declarations the parser rejects on the second run only (its recovery from earlier errors reads the
        # same line differently once a neighbour is renamed): the text decides whose the name is, both times
        "dim3\n#include\ncudaGetErrorString cudaError_t,",
        '"cudaMalloc"\n#include\ncub cublasSgemm,',
        # valid declarations after an earlier error (a parameter, a variable), which read otherwise once the names
        # before them are renamed: after the file's first error, its own declarations give no verdict either
        "curandCreateGenerator (\n#include <vector>\n\r\ncudaStream_t\tcudaMemcpyHostToDevice <\t#else\n "
        "cudaGetErrorString\ndim3\t#define F(x) cudaMalloc(x)\n\r\n__global__\t,/**/::\n__global__\r\n#define E\n\n*\t"
        "k<<<1, 2>>>(a);\n",
        'curandCreateGenerator dim3\t(cudaError_t\ncublasSgemm\tstruct S\tcudaEvent_t u8"s"\n< .\r\n#include <vector>\n'
        "\nint\tcudaFree CUDART_CB\tns::k<float><<<1,1>>>(p); threadIdxCUresult\n__syncthreads\t->\n#\n#if 0\n\n"
        "template <typename T>\n]return\n< & \\\r\n\t;/**/\n__global__\r\n#include <cublas_v2.h>\n { [\n"
        "k /* c */ <<<1,2>>> (x, y);\r\ncudaEvent_t\t&; <\ncudaEvent_t\n",
    ],
)
@pytest.mark.parametrize("flags", [{}, {"hip_kernel_syntax": True}, {"roc": True}])
def test_long_run_clang_findings_stay_fixed(text: str, flags: dict[str, bool]) -> None:
    opts = _clang(replace(Options(engine="regex", use_cache=False), **flags))
    assert failures(text, opts, TABLE, compare=True) == []


# The lexer's edges, each a shape the long run covers from now on: ill-formed literals, lone CRs and mixed line
# ends, non-ASCII characters in names, calling-convention macros before '::', a '#' or a launch.
EDGES = [
    # an empty character literal, a quote left open before '/*', digit separators beside quotes
    "char c = ''; cudaFree(p); /* c */\n",
    "int a = '/* x;\ncudaFree(p); // */\n",
    "int n = 1'/*'; cudaFree(p); /* */\n",
    "int n = 1''; cudaMalloc(&p, 1'000);\n",
    "1'k/**/<<<1,2>>>();\n",  # 1'k is one number: no kernel k
    # ud-suffixes: a launch right after a literal must not lengthen its suffix
    '""s<<<1,1>>>();\n',
    '""s::k<<<1,1>>>();\n',
    "'c'\u00e9::<f><<<1,1>>>();\n",
    # a suffix after a line splice (a lone CR), and a standard string suffix followed by non-ASCII name characters
    "int x = '\u00e9 '\\\r\u540d\u524d; cudaFree(p);\n",
    '"s"sv\u540d\u524d\ncurand_log_normal4\u00e9 +\n"s"_x\rcub\n',
    # lone CRs: a // comment ends there; an include goes on a line of its own, with the file's line end
    "// c\rcudaFree(p);\r#include <cuda_runtime.h>\r",
    "k<<<1,2>>>();\r",
    "'\\\na\r#include <vector>\r",
    "x;\r// c cudaMalloc\rcudaFree(p);\r\n#include <cublas_v2.h>\n",
    # non-ASCII names are never split
    "float f = curand_log_normal4\u00e9(s, 1, 2); cudaMalloc\u00e9(p); cudaFree_\u00fc(p);\n",
    # calling-convention macros before a '#' (on a CR-only line, or after a comment spanning lines), '::', a launch
    "*\rCUBLASAPI#include <cublas_v2.h>\r",
    '=\rCUBLASAPI#include "',
    "CUBLASAPI/*\n*/#include <cuda_runtime.h>\n",
    "x;\nCUDART_CB/*\n*/ #include <cuda_runtime.h>\n",
    "void CUDART_CB ::f(); CUDART_CB k<<<1,2>>>(a); CUDART_CB::x;\n",
    # an argument wrapped in HIP_SYMBOL(...) that ends in a // comment or a quote left open: no ')' inside them
    "cudaMemcpyToSymbol(//\n);\n",
    "cudaMemcpyToSymbol('\n);\n",
]


@pytest.mark.parametrize("text", EDGES)
@pytest.mark.parametrize("flags", [{}, {"hip_kernel_syntax": True}])
def test_lexer_edges_stay_fixed(text: str, flags: dict[str, bool]) -> None:
    assert failures(text, Options(engine="regex", use_cache=False, **flags), TABLE) == []


@pytest.mark.clang
@pytest.mark.parametrize("text", EDGES)
def test_lexer_edges_stay_fixed_with_clang(text: str) -> None:
    assert failures(text, _clang(Options(engine="regex", use_cache=False)), TABLE, compare=True) == []


# Ill-formed input that token soups checked against clang's reading of the same bytes found changed in a comment or
# a literal, or changed again by a second translation; each read as clang reads it, in both engines.
ILL_FORMED_SHAPES = [
    # a name, then an empty character literal (R prefixes strings alone)
    "l''cudaMalloc(p);\n",
    "R''cudaMalloc(p);\n",
    "LR'cudaFree(p);\n",
    # a lone CR inside an unterminated literal; a // comment whose line splice is made with a lone CR
    "'\rcudaMalloc(p);\r",
    "//\\\rcudaMalloc(p);\rcudaFree(p);\r",
    # a launch after a quote left open at a CR, and after raw strings whose delimiter is none or holds a quote
    '"\r<T<<<g,s>>>()',
    'R"\r<T<<<g,s>>>()',
    'R""k<<<1,2>>>()',
    # a // comment ending the file with a backslash, or with a line splice: a line put after it would be inside it
    "/**///\\",
    "//\\\r\\\n",
    # a name a line splice joins to the letters before it is part of a longer name (s\<CR>CUDART_CB is sCUDART_CB)
    '""s\\\rCUDART_CB',
    "s\\\ncudaMalloc(p);\n",
    # conditions a current CUDA build decides, around the runtime include or a macro the translation deletes
    "#if __CUDA_ARCH__>0\n#include<cuda_runtime.h>\n",
    "#if __CUDA_ARCH__>0\n#include <cuda_runtime.h>\n#else\n",
    '#if CUDART_VERSION<0\n#include"cuda.h"',
    "#if CUDART_VERSION >= 9000\nint x;\n#else\n#include <cuda_runtime.h>\n#endif\n",
    "#if __CUDA_ARCH__>0\nCUBLASAPI\n#else",
]


@pytest.mark.parametrize("text", ILL_FORMED_SHAPES)
@pytest.mark.parametrize("launch_syntax", [False, True])
@pytest.mark.parametrize("engine", ["regex", pytest.param("clang", marks=pytest.mark.clang)])
def test_ill_formed_input_keeps_comments_and_literals_and_is_stable(
    text: str, launch_syntax: bool, engine: str
) -> None:
    opts = Options(engine="regex", use_cache=False, hip_kernel_syntax=launch_syntax)
    reading = clang_lexing.usable()[0]  # what must stay unchanged is what clang reads as comments and literals
    if engine == "clang":
        opts = _clang(opts)
    assert failures(text, opts, TABLE, compare=engine == "clang", clang_reading=reading) == []


# With --skip-excluded-preprocessor-conditional-blocks: a branch the parse skips only because CUDA's version or
# architecture macros are undefined there is translated (its chain is decided anew), as the next translation would.
SKIPPED_FOR_A_DECIDED_MACRO = [
    "#if\n#elif CUDA_VERSION<1\n#else\n__CUDA_ARCH__\n",
    "#if CUDART_VERSION >= 9000\ncudaFree(p);\n#else\ncudaMalloc(p);\n#endif\n",
    "#if __CUDA_ARCH__ >= 700\ncudaFree(p);\n#endif\n",
]


@pytest.mark.parametrize("text", SKIPPED_FOR_A_DECIDED_MACRO)
@pytest.mark.parametrize("engine", ["regex", pytest.param("clang", marks=pytest.mark.clang)])
def test_excluded_blocks_skipped_for_a_decided_macro_are_translated_once(text: str, engine: str) -> None:
    opts = Options(engine="regex", use_cache=False, skip_excluded_blocks=True)
    if engine == "clang":
        opts = _clang(opts)
    assert failures(text, opts, TABLE, compare=engine == "clang") == []
    assert "cuda" not in translate(text, "k.cu", opts, TABLE).text  # every name translated, in every branch


def test_a_runtime_include_in_a_branch_the_decisions_rewrite_does_not_count() -> None:
    """Whether it is compiled, the next translation reads from the conditions as written then (an #if decided 0; a
    device pass the clang engine's parse is not): the file gets one that is compiled whatever they say."""

    def out(text: str) -> str:
        return translate(text, "k.cu", Options(engine="regex", use_cache=False), TABLE).text

    top = "#include <hip/hip_runtime.h>\n\n"
    assert out("#if CUDART_VERSION < 9000\n#include <cuda_runtime.h>\n#endif\n") == (
        top + "#if 0\n#include <hip/hip_runtime.h>\n#endif\n"
    )
    # a header's name is no code that HIP lacks: the condition is decided
    assert out("#if __CUDA_ARCH__ > 0\n#include <cuda_runtime.h>\n#endif\n") == (
        top + "#if defined(__HIP_DEVICE_COMPILE__)\n#include <hip/hip_runtime.h>\n#endif\n"
    )
    # one before the rewritten condition counts
    assert out("#if X\n#include <cuda_runtime.h>\n#elif CUDART_VERSION < 9000\n#endif\n") == (
        "#if X\n#include <hip/hip_runtime.h>\n#elif 0\n#endif\n"
    )


def test_lexer_edges_translate_as_clang_reads_them() -> None:
    def out(text: str) -> str:
        return translate(text, "edge.cu", Options(engine="regex", use_cache=False), TABLE).text

    assert "hipFree(p)" in out("int n = 1'/*'; cudaFree(p); /* */\n")
    assert "curand_log_normal4\u00e9(s" in out("f = curand_log_normal4\u00e9(s);\n")
    assert "hipMalloc \u00e9" in out("cudaMalloc \u00e9;\n")
    # a CR-only file: the include line ends in CR, on a line of its own, after no comment
    text = out("// c\rcudaFree(p);\r#include <cuda_runtime.h>\r")
    assert text == "// c\rhipFree(p);\r#include <hip/hip_runtime.h>\r"
    assert out("cudaFree(p);\r") == "#include <hip/hip_runtime.h>\r\rhipFree(p);\r"
