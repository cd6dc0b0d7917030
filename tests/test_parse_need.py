"""When the clang engine asks libclang (``clang_mode.need``): a member template called with explicit arguments is
asked about only where its scope can depend on a template parameter, and where the text decides, the translation
is the one the AST gives."""

from __future__ import annotations

import pytest

from hipify import Options, translate
from hipify.clang_mode.need import REASONS, parse_reason, reason_kind, template_bodies
from hipify.knowledge.table import load_table
from hipify.model import SourceFile
from hipify.regex_mode.engine import text_facts
from hipify.rewrite.index import index_of
from hipify.translation.engines import clang_status

HEAD = "#include <cuda_runtime.h>\nstruct Box { template <int N> __device__ int get(int k) const { return N + k; } };\n"
IN_TEMPLATE = HEAD + "template <typename B> __global__ void k(B box, int* p) { p[0] = box.get<2>(1); }\n"
IN_PLAIN_FUNCTION = HEAD + "__global__ void k(Box box, int* p) { p[0] = box.get<2>(1); }\n"
IN_SPECIALIZATION = (
    HEAD
    + "template <typename B> __device__ int f(B b);\n"
    + "template <> __device__ int f<Box>(Box b) { return b.get<2>(1); }\n"
)
# A constructor's initializers in braces come before its body: the body is still the template's.
IN_CONSTRUCTOR = HEAD + (
    "template <typename B> struct H { int x, y; __device__ H(B b); };\n"
    "template <typename B> __device__ H<B>::H(B b) : x{1}, y{2} { x = b.get<2>(y); }\n"
)
IN_GENERIC_LAMBDA = HEAD + "__device__ int f(Box b) { auto g = [](auto v) { return v.get<2>(1); }; return g(b); }\n"
IN_MACRO = HEAD + "#define GET(o) (o).get<2>(1)\ntemplate <typename B> __device__ int f(B b) { return GET(b); }\n"

OPTIONS = Options(engine="clang", use_cache=False)


def _reason(text: str) -> str:
    table = load_table()
    source = SourceFile("k.cu", text)
    return parse_reason(source, text_facts(source, table, OPTIONS), table, index_of(table), OPTIONS)


@pytest.mark.parametrize("text", [IN_TEMPLATE, IN_CONSTRUCTOR, IN_GENERIC_LAMBDA, IN_MACRO])
def test_a_call_whose_scope_may_be_dependent_is_asked_about(text: str) -> None:
    assert reason_kind(_reason(text)) == "member-template"


@pytest.mark.parametrize("text", [IN_PLAIN_FUNCTION, IN_SPECIALIZATION])
def test_a_call_outside_every_template_with_parameters_is_decided_by_the_text(text: str) -> None:
    assert _reason(text) == ""


@pytest.mark.parametrize("text", [IN_PLAIN_FUNCTION, IN_SPECIALIZATION, IN_TEMPLATE])
def test_the_text_decides_as_the_ast_would(text: str) -> None:
    usable, why = clang_status()
    if not usable:
        pytest.skip(f"libclang unavailable: {why}")
    always = translate(text, "k.cu", Options(engine="clang", use_cache=False, clang_parse="always"))
    assert translate(text, "k.cu", OPTIONS).text == always.text
    # and where the scope is dependent, the AST is what adds the keyword
    assert ("box.template get<2>(1)" in always.text) == (text is IN_TEMPLATE)


def test_template_bodies_span_the_braces_after_a_header_with_parameters() -> None:
    text = "template <int N = (3 > 2)> struct A { void g() {} };\ntemplate <> void f<int>() {}\nint z;\n"
    assert [text[a:b] for a, b in template_bodies(text)] == ["{ void g() {} }"]


def test_every_reason_has_a_kind() -> None:
    for kind, text in REASONS.items():
        assert reason_kind(text.format("cudaMalloc")) == kind
    assert reason_kind("no such reason") == ""
