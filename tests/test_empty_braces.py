"""``x = {};`` on a half or bfloat16 variable: the type is named (HIP's assignment operators make the braces
ambiguous); everything else stays as written. Compiled with ROCm in test_modern_names.py."""

from __future__ import annotations

import pytest

from hipify import Options, translate

OPTIONS = Options(engine="regex", use_cache=False)


def _body(text: str) -> str:
    out = translate(text, "k.cu", OPTIONS).text
    return out[out.index("{", out.index("__global__")) :]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("half2 r; r = {};", "r = half2{};"),
        ("__nv_bfloat16 a, b; a = {}; b = { };", "a = __hip_bfloat16{}; b = __hip_bfloat16{};"),
        ("__half h; if (1) h = {}; else h = {};", "if (1) h = __half{}; else h = __half{};"),
    ],
)
def test_the_type_is_named(code: str, expected: str) -> None:
    assert expected in _body(f"#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n__global__ void k() {{ {code} }}\n")


@pytest.mark.parametrize(
    "code",
    [
        "half2 r = {};",  # an initialization, not an assignment: unambiguous
        "float2 v; v = {};",  # not a 16-bit float type
        "half2 r; r = {};\n}\n__global__ void g() { float r; r = {};",  # the name has another type elsewhere
        "half2* p; p = {};",  # a pointer
    ],
)
def test_everything_else_stays(code: str) -> None:
    text = f"#include <cuda_fp16.h>\n__global__ void k() {{ {code} }}\n"
    body = _body(text)
    assert body.count("= {};") == code.count("= {};") and "{}{}" not in body


def test_translating_twice_changes_nothing() -> None:
    once = translate("#include <cuda_fp16.h>\n__global__ void k() { half2 r; r = {}; }\n", "k.cu", OPTIONS).text
    assert translate(once, "k.cu", OPTIONS).text == once
