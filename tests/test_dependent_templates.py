"""``template`` before a member template named in a dependent scope (HPY030): nvcc accepts the call without it,
clang reads comparisons. The clang engine finds the places in its AST; the regex engine cannot tell."""

from __future__ import annotations

import pytest
from conftest import RocmCompiler

from hipify import Options, translate
from hipify.translation.engines import clang_status

SOURCE = """#include <cuda_runtime.h>
template <typename A, typename B> struct vec_cast {
  template <int N> static __device__ void cast(A* d, const B* s) { for (int i = 0; i < N; ++i) d[i] = s[i]; }
  template <int N> static __device__ int width() { return N; }
};
template <typename A> bool operator<(const vec_cast<A, A>&, int);  // an overloaded operator in scope
struct Box { int v; template <int N> __device__ int get(int k) const { return N + k; } };
template <typename S, typename T, typename B, int N>
__global__ void impl(T* d, const S* s, Box plain, B box) {
  vec_cast<T, S>::cast<N>(d, s);
  int w = vec_cast<T, S>::width<N>();
  int g = box.get<N>(w);
  vec_cast<T, S>::template cast<N>(d, s);
  d[0] = g + plain.v;
}
template __global__ void impl<float, float, Box, 4>(float*, const float*, Box, Box);
void run() { cudaDeviceSynchronize(); }
"""


def _translate(text: str, engine: str) -> tuple[str, list[str]]:
    result = translate(text, "k.cu", Options(engine=engine, use_cache=False))
    return result.text, [d.code for d in result.diagnostics]


def _clang() -> None:
    usable, reason = clang_status()
    if not usable:
        pytest.skip(f"libclang unavailable: {reason}")


def test_the_clang_engine_adds_template_where_the_ast_reads_comparisons() -> None:
    _clang()
    text, codes = _translate(SOURCE, "clang")
    assert "  vec_cast<T, S>::template cast<N>(d, s);\n  int w = vec_cast<T, S>::template width<N>();" in text
    assert "int g = box.template get<N>(w);" in text
    assert text.count("template cast<N>(d, s);") == 2  # the one written with the keyword is left alone
    assert codes.count("HPY030") == 3 and "HPY203" not in codes  # the parse error clang gave is this one
    assert _translate(text, "clang")[0] == text


def test_a_comparison_through_a_member_of_a_known_type_is_left_alone() -> None:
    _clang()
    source = "struct Box { int v; };\ntemplate <int N> bool f(Box b, int w) { return b.v < N > (w); }\n"
    source += "__global__ void k(int* p) { p[0] = f<2>(Box{1}, 0); }\n"
    text, codes = _translate(source, "clang")
    assert "return b.v < N > (w);" in text and "HPY030" not in codes


def test_the_regex_engine_leaves_the_calls_as_written() -> None:
    text, codes = _translate(SOURCE, "regex")
    assert "vec_cast<T, S>::cast<N>(d, s);" in text and "HPY030" not in codes


@pytest.mark.hipcc
def test_the_translation_compiles(rocm: RocmCompiler) -> None:
    _clang()
    path = rocm.work / "k.hip"
    path.write_text(_translate(SOURCE, "clang")[0])
    proc = rocm.compile(path)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_nothing_is_added_where_a_header_is_missing() -> None:
    # a type from a header the parser cannot find is unknown, and a call through it looks dependent
    _clang()
    source = '#include "not_in_the_tree.h"\nvoid f(torch::Tensor t) {\n'
    source += "  DISPATCH(t.scalar_type(), [&] { use(t.data_ptr<scalar_t>()); });\n}\n"
    source += "template <int N> __global__ void k() {}\n"
    text, codes = _translate(source, "clang")
    assert "t.data_ptr<scalar_t>()" in text and "HPY030" not in codes
