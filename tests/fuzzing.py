"""Token soups for fuzzing both engines, and the checks every translation must pass.

Shared by the suite's bounded fuzz test (``test_fuzz.py``, hypothesis) and the long fuzz run
``bench/fuzz.py`` (seeded ``random``, 100,000+ cases). A soup is a random sequence of
fragments: CUDA names the table knows, comments, string and character literals, directives,
launches and line splices, with random blanks and line endings between them.

Checks (``failures``): the translation raises nothing and reports no internal error or
refused edit; every comment and literal of the input survives byte for byte, in order;
translating the output again changes nothing; with ``clang_reading``, our lexer reads the
comments and literals of the input and of the output as clang's own lexer does (so that what
is held unchanged is what clang reads as comments and literals), and finds the ``#include`` and ``#define`` lines
clang's preprocessor finds (in texts without conditional directives); and, with ``compare`` (the
clang cases, which read as clang too), for soups whose regex translation is rename-only and
that the parser reads without errors, the clang engine produces the same text.

Soups include the lexer's edges: ill-formed literals (``''``, a quote left open before
``/*``, digit separators beside quotes, ud-suffixes), empty and unterminated literals after a
name or a prefix (``l''``, ``R''``, ``R"`` and raw strings whose delimiter is no delimiter),
lone CRs and mixed line ends, splices with blanks before the line end and at a comment's end,
non-ASCII characters in names, conditions on the CUDA version and architecture, a ``#`` after a line splice that
ends a line of code (no directive), an unused ``cuda_pipeline.h`` and names qualified by a deleted macro
(``CUBLASAPI ::cuda::std::x``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import replace

import clang_lexing

from hipify.knowledge.table import MappingTable
from hipify.lexing.lexer import lex
from hipify.options import Options
from hipify.translation.api import Result, translate

CUDA_NAMES = (
    "cudaMalloc",
    "cudaFree",
    "cudaMemcpy",
    "cudaMemcpyHostToDevice",
    "cudaDeviceSynchronize",
    "cudaStream_t",
    "cudaError_t",
    "cudaSuccess",
    "cudaGetErrorString",
    "cudaMemcpyToSymbol",
    "cudaEvent_t",
    "cublasHandle_t",
    "cublasSgemm",
    "CUBLASAPI",
    "CUDART_CB",
    "curandCreateGenerator",
    "__shfl_xor_sync",
    "__syncthreads",
    "threadIdx",
    "blockIdx",
    "dim3",
    "cub",
    "CUresult",
    "cuInit",
)
COMMENTS = (
    "/* c */",
    "// line\n",
    "/* cudaMalloc */",
    "// cudaFree(x)\n",
    "/**/",
    "/* a\n b */",
    "// splice \\\n more\n",
)
LITERALS = ('"cudaMalloc"', '"a\\"b"', "'x'", "'\\''", 'u8"s"', 'R"(cudaFree)"', "L'c'", '""')
# Ill-formed and unusual literals, read as clang reads them: an empty character literal, quotes left open
# (before a '/*', at a line end, after a backslash), digit separators next to quotes, ud-suffixes.
ILL_FORMED = ("''", "'", '"', "'/*", '"/*', "1'", "1''", "0x1'f'", "'\\", "'a'b'", '"s"_x', "'c'é", '"s"sv', "1'é")
# Empty and unterminated literals right after a name or an encoding prefix (R prefixes strings alone), raw strings
# whose delimiter is none (a blank, a CR, a quote in it), lone CRs inside literals, and splices that end a comment.
PREFIXED = (
    "l''",
    "R''",
    "L''",
    "u8R''",
    "LR'",
    "R'",
    'R"',
    'R""',
    'uR"',
    'R"\r',
    'R"a b(',
    'R""(x)""',
    "x''",
    '"\r',
    "'\r",
)
SPLICED_COMMENTS = ("//\\\r", "//\\\n", "// c \\\r", "//\\ \r\n", "/* c *\\\r/", "/* c \\\r*/")
# Non-ASCII characters in names (C++ allows them): a name is never split there.
NON_ASCII = ("curand_log_normal4é", "é", "cudaMallocé", "\u03b1cudaFree", "名前", "cudaFree_ü(")
DIRECTIVES = (
    "#include <cuda_runtime.h>\n",
    '#include "cuda.h"\n',
    "#include <cublas_v2.h>\n",
    "#include <vector>\n",
    "#define M cudaFree\n",
    "#define F(x) cudaMalloc(x)\n",
    "#define E\n",
    "#if 0\n",
    "#if X\n",
    "#ifdef __CUDACC__\n",
    "#else\n",
    "#endif\n",
    "#pragma once\n",
    "#define L k<<<1, 2>>>(a)\n",
    # conditions a current CUDA build decides (the rule that decides them must read its own output the same)
    "#if __CUDA_ARCH__>0\n",
    "#if __CUDA_ARCH__ >= 800\n",
    "#elif CUDART_VERSION < 11000\n",
    "#if defined(__CUDA_ARCH__) && __CUDACC_VER_MAJOR__ >= 12\n",
    # a CUDA header HIP lacks, commented out where nothing uses what it declares (cuda::, pipeline, ...)
    "#include <cuda_pipeline.h>\n",
)
# A '#' after a line splice that ends a line of code is in the middle of that line: no directive (clang reads the
# include's name as a string literal, and nothing there is rewritten).
SPLICED_DIRECTIVES = (
    '!\\\n#include "cuda.h"\n',
    "x \\\r\n#define M cudaFree\n",
    "; \\ \n#include <cuda_runtime.h>\n",
    "\\\n#define E\n",
)
# Names a deleted calling-convention macro qualifies (``CUBLASAPI ::cuda::std::x`` is ``::cuda::std::x`` to the
# compiler), and CUDA namespaces the translation renames (which use no header's names afterwards).
QUALIFIED = (
    "CUBLASAPI ::cuda::std::int32_t",
    "::cuda::std::",
    "cuda::std::min",
    "cuda :: std :: x",
    "CUDART_CB ::cub::",
)
LAUNCHES = ("k<<<1, 2>>>(a);", "k<<<g, b, 0, s>>>();", "k /* c */ <<<1,2>>> (x, y);", "ns::k<float><<<1,1>>>(p);")
CODE = (
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "::",
    "->",
    ".",
    "<",
    ">",
    "=",
    "*",
    "&",
    "/",
    "+",
    "1'000",
    "0xffffffff",
    "return",
    "int",
    "void",
    "x",
    "k",
    "__global__",
    "template <typename T>",
    "struct S",
    "#",
)
SPLICES = ("\\\n", "\\\r\n", "\\\r", "\\ \n")
# Line ends: LF, CRLF and a lone CR (old Mac files; mixed files), which clang reads as a line end too.
BLANKS = (" ", " ", "\n", "\n", "\t", "\r\n", "\r", "")
FRAGMENTS = (
    CUDA_NAMES
    + COMMENTS
    + LITERALS
    + ILL_FORMED
    + PREFIXED
    + SPLICED_COMMENTS
    + NON_ASCII
    + DIRECTIVES
    + SPLICED_DIRECTIVES
    + QUALIFIED
    + LAUNCHES
    + CODE
    + SPLICES
)
# Internal errors and refused (overlapping) edits: a translation must never report these.
BROKEN = ("HPY202", "HPY204", "HPY205", "HPY210")
_INCLUDE = re.compile(r"#\s*(?:include|include_next|import)\b")


# Well-formed pieces, for soups the parser reads without errors (where the engines must agree).
TOP_LEVEL = (
    "#include <cuda_runtime.h>\n",
    "#include <cublas_v2.h>\n",
    "#define SYNC() cudaDeviceSynchronize()\n",
    "#define CHECK(x) do { cudaError_t e_ = (x); (void)cudaGetErrorString(e_); } while (0)\n",
    "#define FREE_ALL(p) \\\n  cudaFree(p)\n",
    "__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }\n",
    "template <typename T> __global__ void tk(T *p) { p[blockIdx.x] = T(); }\n",
    "// cudaMalloc in a comment\n",
    "/* block cudaFree\n   comment */\n",
    'static const char *where = "cudaMalloc(&p)";\n',
    "#if 0\nvoid dead() { cudaFree(0); }\n#endif\n",
    "#ifdef __CUDACC__\nstatic int on = 1;\n#else\nstatic int off = 0;\n#endif\n",
    "static cudaStream_t global_stream;\n",
    "__global__ void w(unsigned *o) { o[0] = __ballot_sync(0xffffffff, 1); }\n",
)
DECLARATIONS = "__global__ void k(float *p);\ntemplate <typename T> __global__ void tk(T *p);\n"
STATEMENTS = (
    "cudaMalloc((void **)&d, 64);",
    "cudaFree(d);",
    "cudaMemcpy(d, d, 4, cudaMemcpyDeviceToDevice);",
    "cudaDeviceSynchronize();",
    "k<<<1, 64>>>(d);",
    "k<<<dim3(2), 32, 0, st>>>(d);",
    "tk<float><<<1, 1>>>(d);",
    "k /* launch */ <<<1, 1>>>(d);",
    "cudaStreamSynchronize(st);",
    "{ cudaEvent_t ev; cudaEventCreate(&ev); cudaEventDestroy(ev); }",
    "// cudaFree(d) stays a comment\n",
    '{ const char *m = "cudaFree(d)"; (void)m; }',
    "{ char c = 'x'; (void)c; }",
    "{ int n = 1'000; (void)n; }",
    "(void)cudaGetLastError();",
    "{ cudaError_t err = cudaGetLastError(); (void)err; }",
)


def program(rng: random.Random, size: int = 12) -> str:
    """A random but well-formed file: top-level pieces (each at most once) and functions of
    random statements, after the declarations the statements need."""
    pieces = rng.sample(TOP_LEVEL, rng.randint(0, min(size, len(TOP_LEVEL))))
    for i in range(rng.randint(0, size)):
        body = rng.choice(BLANKS).join(rng.choice(STATEMENTS) for _ in range(rng.randint(0, 6)))
        pieces.append(f"void f{i}(float *d, cudaStream_t st) {{{rng.choice(BLANKS)}{body}\n}}\n")
    rng.shuffle(pieces)
    parts = [rng.choice(("", DECLARATIONS))] if not pieces else [DECLARATIONS]
    for piece in pieces:
        parts.append(piece)
        parts.append(rng.choice(("", "\n", "// between\n")))
    return "".join(parts)


def soup(rng: random.Random, size: int = 40) -> str:
    """A random soup of up to ``size`` fragments."""
    parts = []
    for _ in range(rng.randint(0, size)):
        parts.append(rng.choice(FRAGMENTS))
        parts.append(rng.choice(BLANKS))
    return "".join(parts)


def protected(text: str) -> list[str]:
    """The comments and literals of ``text``, in order (what must survive byte for byte); the
    header names of ``#include`` lines are not literals (the translation rewrites them)."""
    lexed = lex(text)
    includes = [(s, e) for s, e in lexed.directives if _INCLUDE.match(lexed.masked, s)]
    spans = [span for span in lexed.literals if not any(s <= span[0] < e for s, e in includes)]
    return [text[s:e] for s, e in sorted(lexed.comments + tuple(spans))]


def _kept_in_order(before: Sequence[str], after: Sequence[str]) -> bool:
    """Is ``before`` a subsequence of ``after`` (insertions may add none, but never change one)?"""
    it = iter(after)
    return all(any(piece == other for other in it) for piece in before)


def rename_only(result_codes: Sequence[str]) -> bool:
    return all(code in ("HPY001", "HPY003") for code in result_codes)


def failures(
    text: str,
    options: Options,
    table: MappingTable,
    path: str = "fuzz.cu",
    compare: bool = False,
    clang_reading: bool = False,
) -> list[str]:
    """What is wrong with translating ``text`` (empty: nothing). ``clang_reading``: also check that our lexer
    reads the comments and literals of the input and the output as clang's lexer does. ``compare``: that too, and
    that a rename-only regex translation equals the clang engine's (``options`` should select clang)."""
    problems: list[str] = []
    try:
        result = translate(text, path, options, table)
    except Exception as exc:  # the API never raises: any exception is a failure
        return [f"raised {type(exc).__name__}: {exc}"]
    broken = [d for d in result.diagnostics if d.code in BROKEN]
    if broken:
        problems.append(f"reported {broken[0].code}: {broken[0].message}")
    # (a literal naming a CUDA function the program asks the runtime for by name becomes HIP's name: HPY037)
    by_name = {f'"{d.subject}"' for d in result.diagnostics if d.code == "HPY037"}
    if not _kept_in_order([p for p in protected(text) if p not in by_name], protected(result.text)):
        problems.append("a comment or literal changed")
    if translate(result.text, path, options, table).text != result.text:
        problems.append("not idempotent")
    if compare:
        problems += _disagreement(text, result, options, table, path)
    if compare or clang_reading:
        # clang's lexer is the reference for what is a comment, a literal and a line end
        problems += [f"lexer: {p}" for p in clang_lexing.differences(text) + clang_lexing.differences(result.text)]
        # and for which '#' begins a directive (#include and #define lines, where clang's preprocessor reads all)
        problems += [f"lexer: {p}" for p in clang_lexing.directive_differences(text)]
    return problems


def _disagreement(text: str, clang: Result, options: Options, table: MappingTable, path: str) -> list[str]:
    """How the clang engine's translation differs from a rename-only regex one ([] if it does not)."""
    if clang.engine != "clang" or any(d.code in ("HPY201", "HPY203", "HPY206") for d in clang.diagnostics):
        # Not used (it fell back, or the soup is over a limit), or the parser found errors: on
        # broken code the parser's reading rightly differs from the text heuristics.
        return []
    regex = translate(text, path, replace(options, engine="regex"), table)
    if not rename_only([e.code for e in regex.edits]) or regex.text == clang.text:
        return []
    return [f"engines differ (rename-only): regex {regex.text!r}, clang {clang.text!r}"]
