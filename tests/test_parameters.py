"""Parameter types spelled one way (lexing/parameters.py), and the namespace a top-level declaration is in: what
decides whether a definition in user code is one HIP's headers define too."""

from __future__ import annotations

import pytest

from hipify.lexing.declarations import top_level_declarations
from hipify.lexing.lexer import lex
from hipify.lexing.parameters import parameter_types


@pytest.mark.parametrize(
    ("text", "types"),
    [
        ("float *addr, float value", ("float*", "float")),
        ("double* address, double", ("double*", "double")),
        ("unsigned long long int* a, unsigned long long v", ("unsigned long long*", "unsigned long long")),
        ("unsigned *p, unsigned", ("unsigned int*", "unsigned int")),
        ("long int a, signed char b, short int c", ("long", "signed char", "short")),
        ("const float * __restrict__ x, const int n = 3", ("const float*", "int")),  # top-level const is no type
        ("const float* const p", ("const float*",)),
        ("volatile int* p, int", ("volatile int*", "int")),
        ("float2 &a, float2&& b, float2 c", ("float2&", "float2&&", "float2")),
        ("void", ()),
        ("", ()),
    ],
)
def test_types_are_spelled_one_way(text: str, types: tuple[str, ...]) -> None:
    assert parameter_types(text) == types


@pytest.mark.parametrize("text", ["int (*f)(int)", "float a[4]", "std::size_t n", "vec<float> v", "int n, ..."])
def test_types_that_are_not_plain_make_the_list_unknown(text: str) -> None:
    assert parameter_types(text) is None


def test_declarations_know_whether_a_namespace_holds_them() -> None:
    text = (
        "__device__ float f(float *a);\n"
        'extern "C" { __device__ float g(float *a) { return *a; } }\n'
        "namespace lib { __device__ float h(float *a) { return *a; } }\n"
        "namespace { int k; }\n"
        "int after;\n"
    )
    lexed = lex(text)
    found = {d.name: d.in_namespace for d in top_level_declarations(lexed.masked, lexed.directives)}
    assert found == {"f": False, "g": False, "h": True, "k": True, "after": False}
