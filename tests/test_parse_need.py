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

# A function template that is a member of a class that is no template, calling through that class's static member:
# the object's type depends on no template parameter (HeCBench's ``CmdArgReader::getArg``).
READER = HEAD + "struct Reader { static Box* self; template <int N> static int get(int k); };\n"
ON_A_MEMBER_OF_A_PLAIN_CLASS = READER + (
    "template <int N> int Reader::get(int k) { if (!self) return 0; return self->get<N>(k); }\n"
)
# The same call where the name is the template's own (a parameter, a local), or a member of a class template.
ON_A_PARAMETER = READER + "template <typename B> int use(B* self) { return self->get<2>(1); }\n"
ON_A_LOCAL = READER + "template <typename B> int use(B b) { auto self = &b; return self->get<2>(1); }\n"
IN_A_CLASS_TEMPLATE = HEAD + "template <typename B> struct W { B* self; int f() { return self->get<2>(1); } };\n"
OUT_OF_A_CLASS_TEMPLATE = HEAD + (
    "template <typename B> struct V { static B* self; int f(); };\n"
    "template <typename B> int V<B>::f() { return self->get<2>(1); }\n"
)
ON_A_MEMBERS_MEMBER = (
    READER
    + "struct Pair { Box inner; };\nPair g;\n"
    + ("template <int N> int Reader::get(int k) { return g.inner.get<N>(k); }\n")
)

OPTIONS = Options(engine="clang", use_cache=False)


def _reason(text: str) -> str:
    table = load_table()
    source = SourceFile("k.cu", text)
    return parse_reason(source, text_facts(source, table, OPTIONS), table, index_of(table), OPTIONS)


@pytest.mark.parametrize(
    "text",
    [
        IN_TEMPLATE,
        IN_CONSTRUCTOR,
        IN_GENERIC_LAMBDA,
        IN_MACRO,
        ON_A_PARAMETER,
        ON_A_LOCAL,
        IN_A_CLASS_TEMPLATE,
        OUT_OF_A_CLASS_TEMPLATE,
        ON_A_MEMBERS_MEMBER,
    ],
)
def test_a_call_whose_scope_may_be_dependent_is_asked_about(text: str) -> None:
    assert reason_kind(_reason(text)) == "member-template"


@pytest.mark.parametrize("text", [IN_PLAIN_FUNCTION, IN_SPECIALIZATION, ON_A_MEMBER_OF_A_PLAIN_CLASS])
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


@pytest.mark.parametrize("text", [ON_A_MEMBER_OF_A_PLAIN_CLASS, ON_A_PARAMETER, OUT_OF_A_CLASS_TEMPLATE])
def test_an_object_the_template_does_not_declare_needs_no_keyword(text: str) -> None:
    """Where the text decides, the AST adds no ``template`` either; where the name is the template's own, or a
    member of a class template, the AST adds it: asking there is what keeps the keyword."""
    usable, why = clang_status()
    if not usable:
        pytest.skip(f"libclang unavailable: {why}")
    always = translate(text, "k.cu", Options(engine="clang", use_cache=False, clang_parse="always"))
    assert translate(text, "k.cu", OPTIONS).text == always.text
    assert ("self->template get<" in always.text) == (text is not ON_A_MEMBER_OF_A_PLAIN_CLASS)
