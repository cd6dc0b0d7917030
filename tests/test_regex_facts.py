"""What the regex engine finds: identifiers with context, regions, launches, includes."""

from __future__ import annotations

import re

from hipify.lexing.facts import Region
from hipify.lexing.text_facts import extract_facts
from hipify.options import Options


def ident(text: str, name: str, nth: int = 0, **kw: object):
    found = [i for i in extract_facts(text, Options(**kw)).identifiers if i.name == name]  # type: ignore[arg-type]
    return found[nth]


def args_text(text: str, spans) -> list[str]:
    return [text[s:e] for s, e in spans]


def test_prev_next_and_qualifier() -> None:
    text = "x = cub::DeviceReduce::Sum(a); p->cudaFree(); s . y; ::cudaMalloc(q);"
    dr = ident(text, "DeviceReduce")
    assert (dr.prev_token, dr.next_token, dr.qualifier) == ("::", "::", "cub")
    cub = ident(text, "cub")
    assert (cub.prev_token, cub.next_token, cub.qualifier) == ("=", "::", "")
    assert ident(text, "cudaFree").prev_token == "->"
    assert ident(text, "y").prev_token == "."
    glob = ident(text, "cudaMalloc")
    assert (glob.prev_token, glob.qualifier) == ("::", "")


def test_tokens_skip_comments_and_continuations() -> None:
    text = "a /* c */ -> /* d */ b\n#define M(x) \\\n  x . \\\n  f"
    assert ident(text, "b").prev_token == "->"
    assert ident(text, "f").prev_token == "."


def test_tokens_do_not_cross_directive_boundaries() -> None:
    text = "#if X\n  cudaFree(p);\n#elif Y\ncudaMalloc(q)\n#endif\n#define M v\nw = 1;\nint z\n#define N 2\n;"
    free = ident(text, "cudaFree")
    assert (free.prev_token, free.next_token, free.user_declared) == ("", "(", False)
    assert (ident(text, "cudaMalloc").prev_token, ident(text, "cudaMalloc").user_declared) == ("", False)
    v = ident(text, "v")  # last token of a #define: nothing follows it inside the directive
    assert (v.prev_token, v.next_token) == ("M", "")
    assert ident(text, "w").prev_token == ""
    assert ident(text, "z").next_token == ""  # the next line is a directive
    assert ident(text, "X").next_token == ""


def test_call_args() -> None:
    text = "CHECK(cudaMemcpy(dst, src, n * sizeof(T), kind)); f( ); g(a, h(b, c), \"x,y\", '(')"
    assert args_text(text, ident(text, "cudaMemcpy").call_args) == ["dst", "src", "n * sizeof(T)", "kind"]
    assert args_text(text, ident(text, "CHECK").call_args) == ["cudaMemcpy(dst, src, n * sizeof(T), kind)"]
    assert ident(text, "f").call_args == ()
    assert args_text(text, ident(text, "g").call_args) == ["a", "h(b, c)", '"x,y"', "'('"]
    assert ident(text, "dst").call_args is None


def test_unbalanced_call_has_no_args() -> None:
    assert ident("f(a, b;\n", "f").call_args is None
    assert ident("f(a, b];", "f").call_args is None


def test_regions() -> None:
    text = "#if 0\nint a;\n#else\nint b;\n#endif\n#define D c\nint e;\n"
    assert ident(text, "a").region is Region.INACTIVE
    assert ident(text, "b").region is Region.CODE
    assert ident(text, "c").region is Region.DIRECTIVE
    assert ident(text, "e").region is Region.CODE


def test_regions_follow_defines() -> None:
    text = "#ifdef GPU\nint a;\n#else\nint b;\n#endif\n#ifndef GPU\nint c;\n#endif\n"
    assert ident(text, "a").region is Region.CODE  # unknown without -D: active
    assert ident(text, "b").region is Region.CODE
    assert ident(text, "c").region is Region.CODE
    assert ident(text, "a", defines=("GPU",)).region is Region.CODE
    assert ident(text, "b", defines=("GPU",)).region is Region.INACTIVE
    assert ident(text, "c", defines=("GPU",)).region is Region.INACTIVE
    text2 = "#if defined(X) && Y\nint a;\n#endif\n#if X\nint b;\n#endif\n"
    assert ident(text2, "a", defines=("X=0",)).region is Region.CODE  # not obvious: active
    assert ident(text2, "b", defines=("X=0",)).region is Region.INACTIVE


def test_nested_inactive() -> None:
    text = "#if 0\n#if 1\nint a;\n#endif\nint b;\n#endif\nint c;\n"
    assert ident(text, "a").region is Region.INACTIVE
    assert ident(text, "b").region is Region.INACTIVE
    assert ident(text, "c").region is Region.CODE


def test_directive_keywords_and_text_directives_are_not_identifiers() -> None:
    names = {i.name for i in extract_facts("#include <cuda_runtime.h>\n#error cudaMalloc\n#define X 1\n").identifiers}
    assert names == {"X"}


def test_user_declared() -> None:
    text = (
        "#define cudaCheck(x) x\nstatic cudaError_t cudaHelper(int v);\nstruct cuThing {};\n"
        "void f() { cudaCheck(cudaHelper(1)); return cudaMalloc(p); }\nusing cuAlias = int;\n"
    )
    facts = extract_facts(text)
    declared = {i.name for i in facts.identifiers if i.user_declared}
    assert {"cudaCheck", "cudaHelper", "cuThing", "cuAlias"} <= declared
    assert "cudaMalloc" not in declared and "cudaError_t" not in declared


def test_wanted_filters_identifiers() -> None:
    facts = extract_facts("int a = cudaMalloc(b); c.d;", wanted=lambda n: n.startswith("cuda"))
    assert [i.name for i in facts.identifiers] == ["cudaMalloc"]


def test_includes() -> None:
    text = '#include <cuda.h>\n  #  include "a/b.cuh" // c\n#include MACRO\n#if 0\n#include <x.h>\n#endif\n'
    incs = extract_facts(text).includes
    assert [(i.header, i.angled, i.region) for i in incs] == [
        ("cuda.h", True, Region.CODE),
        ("a/b.cuh", False, Region.CODE),
        ("x.h", True, Region.INACTIVE),
    ]
    assert text[incs[0].name[0] : incs[0].name[1]] == "cuda.h"


def launches(text: str):
    return extract_facts(text).launches


def test_launch_basic() -> None:
    text = "k<<<g, b, 0, s>>>(x, y);"
    (la,) = launches(text)
    assert text[la.kernel[0] : la.kernel[1]] == "k"
    assert args_text(text, la.config) == ["g", "b", "0", "s"]
    assert args_text(text, la.args) == ["x", "y"]
    assert text[la.lparen] == "(" and text[la.rparen] == ")" and la.end == la.rparen + 1
    assert not la.template


def test_launch_templates_and_namespaces() -> None:
    text = (
        "template <typename T, int N> __global__ void tk(T* p) {}\n"
        "void f() { ns::k<float, 4><<<dim3(1, 2), 64>>>(p); tk<<<1, 1>>>(q); other<<<1, 1>>>(); }"
    )
    a, b, c = launches(text)
    assert text[a.kernel[0] : a.kernel[1]] == "ns::k<float, 4>" and a.template
    assert args_text(text, a.config) == ["dim3(1, 2)", "64"]
    assert text[b.kernel[0] : b.kernel[1]] == "tk" and b.template  # deduced template kernel
    assert not c.template and c.args == ()


def test_launch_multiline_comments_and_macros() -> None:
    text = (
        "#define L(k, ...) \\\n  k<<<1, /* b */ 32>>>(__VA_ARGS__)\n"
        "void f() {\n  k2<<<(n + 1) / 2,\n      f(a, b)>>>(x, // first\n      g(y, z));\n}\n"
    )
    a, b = launches(text)
    assert a.region is Region.DIRECTIVE
    assert args_text(text, a.config) == ["1", "/* b */ 32"]
    assert args_text(text, a.args) == ["__VA_ARGS__"]
    assert args_text(text, b.config) == ["(n + 1) / 2", "f(a, b)"]
    assert args_text(text, b.args) == ["x", "// first\n      g(y, z)"]  # comments stay in spans


def test_not_launches() -> None:
    assert launches("std::vector<std::vector<std::vector<int>>> v; a = b << 2 >> 1;") == ()
    assert launches("k<<<1, 1>>>(x;") == ()
    assert launches('// k<<<1, 1>>>(x);\nconst char* s = "k<<<1,1>>>()";') == ()


def test_a_whole_word_pattern_matches_where_the_lookbehind_first_pattern_does() -> None:
    from hipify.lexing.text_facts import whole_word

    texts = [
        "a cudaMalloc(b)",
        "mycudaMalloc",
        "cudaMalloc_x",
        "$cudaMalloc",
        "名cudaMalloc",
        "cudaMalloc名",
        "cudaMalloc",
    ]
    for name in ("cudaMalloc", "x$y"):
        for text in [t.replace("cudaMalloc", name) for t in texts]:
            expected = [m.start() for m in re.finditer(rf"(?<![\w$]){re.escape(name)}(?![\w$])", text)]
            assert [m.start() for m in re.finditer(whole_word(name), text)] == expected, text
    assert [m.start() for m in re.finditer(whole_word("cudaMalloc"), "x cudaMalloc y")] == [2]
