"""A project's own names spelled like CUDA's: a variable or parameter named like a CUDA type, and a call after a
statement macro, are the project's or the API's as the code reads them, in both engines."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify.lexing.lexer import lex
from hipify.lexing.text_facts import names_no_type
from hipify.options import Options
from hipify.translation.api import translate_project

IMAGE = """\
#pragma once
template <typename T> struct Img {
  int w;
  template <typename t> Img& draw(const Img<t>& texture, int x) {
    if (texture.w > 1) w += texture.w + x;
    const Img<t>* other = &texture;
    w += other->w;
    return *this;
  }
  int width_of(const Img<T>& surface) const { return surface.w; }
};
"""


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_a_parameter_named_like_a_cuda_type_is_the_projects(tmp_path: Path, engine: str) -> None:
    """A library's ``const Img<t>& texture`` (CUDA's removed texture template has the name) keeps its class whole:
    nothing is left out, nothing is disabled."""
    (tmp_path / "img.h").write_text(IMAGE)
    main = '#include "img.h"\n__global__ void k(int* p) { p[0] = 1; }\nint main() { Img<int> a{1}; a.draw(a, 2); }\n'
    (tmp_path / "main.cu").write_text(main)
    texts = {str(tmp_path / n): (tmp_path / n).read_text() for n in ("img.h", "main.cu")}
    result = translate_project(texts, Options(engine=engine)).results[str(tmp_path / "img.h")]
    assert "HIPIFY_ENABLE" not in result.text and "hipify_unavailable" not in result.text
    assert not [d for d in result.diagnostics if d.code in ("HPY010", "HPY111")]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("const Img<T>& texture, int x", True),  # a declarator after '&'
        ("return texture;", True),
        ("if (texture.w > 1)", True),  # a value's member
        ("p->w = texture[2];", True),
        ("colors[l] = texture;", True),
        ("texture = other;", True),
        ("using S = texture;", False),  # an alias of the type
        ("auto s = (texture)x;", False),  # a cast
        ("void f(texture, int);", False),  # an unnamed parameter
        ("texture t;", False),
        ("return texture{1, 2};", False),  # a temporary of the type
    ],
)
def test_where_no_type_can_stand(code: str, expected: bool) -> None:
    masked = lex(code).masked
    at = masked.index("texture")
    assert names_no_type(masked, at, at + len("texture")) is expected


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_a_call_after_a_statement_macro_is_a_call(tmp_path: Path, engine: str) -> None:
    """``CUERR // note`` on one line and ``cudaMemset(...)`` on the next: the macro is a statement (``{ ... }``),
    so the call is no declaration of a ``cudaMemset`` of the project's, and is translated."""
    code = (
        "#include <cstdio>\n"
        '#define CUERR { cudaError_t e = cudaGetLastError(); if (e != cudaSuccess) { printf("%s\\n", '
        "cudaGetErrorString(e)); return 1; } }\n"
        "int main() {\n  int* d;\n  cudaMalloc(&d, 4);\n  CUERR // check and clear errors\n"
        "  cudaMemset(d, 0, 4);\n  CUERR\n  return 0;\n}\n"
    )
    (tmp_path / "a.cu").write_text(code)
    out = translate_project({str(tmp_path / "a.cu"): code}, Options(engine=engine)).results[str(tmp_path / "a.cu")]
    assert "hipMemset(d, 0, 4);" in out.text and "cudaMemset" not in out.text


TEMPLATE_AND_LAST_PARAMETERS = """\
#pragma once
template <typename HOST_METRIC, typename CUDA_METRIC>
class Wrap : public Base<HOST_METRIC, CUDA_METRIC> {};
template <class CUDA_T> void keep(CUDA_T x);
struct Loaded { using Fn = int(); Fn *cudaLoadedFn{nullptr}; };
__global__ void grads(float* cuda_out_gradients, float* cuda_out_hessians) {
  cuda_out_hessians[0] = cuda_out_gradients[0];
}
"""
USES = """\
#include "metric.cuh"
void eval(Wrap<int, float>& w, float* cuda_out_hessians) { (void)w; (void)cuda_out_hessians; }
"""


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_template_parameters_and_last_parameters_are_the_projects(tmp_path: Path, engine: str) -> None:
    """``typename CUDA_METRIC>``, a function's last parameter ``float* cuda_out)`` and a member initialized in
    braces (``Fn *cudaLoadedFn{nullptr};``) declare the project's names: no "looks like a CUDA API" finding (HPY104)
    for them, in the declaring file or the files using them."""
    files = {"metric.cuh": TEMPLATE_AND_LAST_PARAMETERS, "eval.cpp": USES}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    results = translate_project({str(tmp_path / n): t for n, t in files.items()}, Options(engine=engine)).results
    unknown = [d.message for r in results.values() for d in r.diagnostics if d.code == "HPY104"]
    assert unknown == []


PROXY = """\
#pragma once
#include <any>
class Proxy {
 public:
  std::any batch_;
  std::any Adapter() const { return batch_; }
};
"""
PROXY_USE = """\
#include "proxy.h"
__global__ void k(int* p) { p[0] = 1; }
int main() { Proxy d; (void)d.Adapter(); k<<<1, 1>>>(nullptr); return 0; }
"""


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_a_name_a_named_scope_qualifies_is_not_cudas(tmp_path: Path, engine: str) -> None:
    """``std::any`` is the standard library's, not CUDA's device function ``any`` (which HIP lacks): a class holding
    one uses nothing HIP lacks, and its users are no "use that keeps it" (HPY111)."""
    files = {"proxy.h": PROXY, "use.cu": PROXY_USE}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    results = translate_project({str(tmp_path / n): t for n, t in files.items()}, Options(engine=engine)).results
    found = [(d.code, d.message) for r in results.values() for d in r.diagnostics if d.code in ("HPY111", "HPY010")]
    assert found == []
    assert results[str(tmp_path / "proxy.h")].text == PROXY


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_libcurls_names_do_not_look_like_cuda(tmp_path: Path, engine: str) -> None:
    """``CURLE_OK`` and ``CURLOPT_URL`` match "CU" and capitals as CUDA's driver names do; they are libcurl's, no
    NVIDIA library's name starts with ``CURL``; an unknown CUDA-looking name is still reported."""
    text = "int f(void* c) { return fetch(c, CURLOPT_URL) == CURLE_OK ? cuMyThing() : 0; }\n"
    (tmp_path / "net.cpp").write_text(text)
    results = translate_project({str(tmp_path / "net.cpp"): text}, Options(engine=engine)).results
    unknown = [d.subject for r in results.values() for d in r.diagnostics if d.code == "HPY104"]
    assert unknown == ["cuMyThing"]
