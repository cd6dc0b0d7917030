"""Facts the clang engine derives from tokens + AST, in all three CUDA environments.

Environments: (a) the real toolkit (skipped when none is installed), (b) PyPI NVIDIA header
wheels (simulated by a wheel-shaped directory pointing at the toolkit's headers, or the real
wheels when installed), (c) no CUDA at all, forced both by ``cuda_path="none"`` and by a
``--cuda-path`` that holds nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("clang.cindex")

from test_clang_fixtures import TABLE

from hipify.clang_mode import environment, parsing
from hipify.clang_mode.engine import facts
from hipify.lexing.facts import FileFacts, Identifier, Launch, Region
from hipify.model import Origin, SourceFile
from hipify.options import Options

if not environment.clang_available()[0]:
    pytest.skip(environment.clang_available()[1], allow_module_level=True)

TOOLKIT = environment.detect_cuda("")


@pytest.fixture(params=["toolkit", "wheels", "none", "empty-path"])
def options(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Options]:
    kind = request.param
    if kind == "toolkit":
        if TOOLKIT.kind != "toolkit":
            pytest.skip("no CUDA toolkit installed")
        yield Options(cuda_path=TOOLKIT.root)
    elif kind == "wheels":
        include = _wheel_shaped_headers(tmp_path)
        monkeypatch.setattr(environment, "_toolkit_candidates", lambda: [])
        monkeypatch.setattr(environment, "_nvidia_wheel_roots", lambda: [include.parent.parent])
        environment.detect_cuda.cache_clear()
        env = environment.detect_cuda("")
        assert env.kind == "wheels", env
        yield Options()
        environment.detect_cuda.cache_clear()
    elif kind == "none":
        yield Options(cuda_path="none")
    else:
        empty = tmp_path / "no-cuda-here"
        empty.mkdir()
        yield Options(cuda_path=str(empty))


def _wheel_shaped_headers(tmp_path: Path) -> Path:
    """``<site>/nvidia/cu13/include`` as the CUDA 13 wheels lay it out."""
    for root in environment._nvidia_wheel_roots() if TOOLKIT.kind != "toolkit" else ():
        if (root / "cu13" / "include" / "cuda_runtime.h").is_file():
            return root / "cu13" / "include"
    if TOOLKIT.kind != "toolkit":
        pytest.skip("neither NVIDIA header wheels nor a toolkit to borrow headers from")
    include = tmp_path / "site" / "nvidia" / "cu13" / "include"
    include.parent.mkdir(parents=True)
    os.symlink(os.path.realpath(Path(TOOLKIT.root) / "include"), include)
    return include


def _facts(text: str, options: Options, name: str = "t.cu") -> FileFacts:
    return facts(SourceFile(name, text), TABLE, options)


def _named(f: FileFacts, text: str, name: str) -> list[Identifier]:
    return [i for i in f.identifiers if text[i.start : i.end] == name and i.name == name]


def _launch_text(f: FileFacts, text: str) -> dict[str, Launch]:
    return {text[launch.start : launch.end]: launch for launch in f.launches}


TEMPLATES = """\
namespace ns {
template <typename T> __global__ void fill(T *p, T v) { p[threadIdx.x] = v; }
__global__ void fill(float *p) { p[threadIdx.x] = 0; }
}
void run(float *f, int *i, cudaStream_t s) {
  ns::fill<<<1, 32, 0, s>>>(i, 3);
  ns::fill<int><<<dim3(1), 32>>>(i, 4);
  ns::fill<<<1, 32>>>(f);
}
"""


def test_template_launches_explicit_and_deduced(options: Options) -> None:
    f = _facts(TEMPLATES, options)
    launches = _launch_text(f, TEMPLATES)
    assert launches["ns::fill<<<1, 32, 0, s>>>(i, 3)"].template  # deduced: only the AST knows
    assert launches["ns::fill<int><<<dim3(1), 32>>>(i, 4)"].template
    assert not launches["ns::fill<<<1, 32>>>(f)"].template  # the non-template overload
    assert all(launch.origin == Origin.AST and launch.region == Region.CODE for launch in f.launches)
    first = launches["ns::fill<<<1, 32, 0, s>>>(i, 3)"]
    assert TEMPLATES[first.kernel[0] : first.kernel[1]] == "ns::fill"
    assert [TEMPLATES[a:b] for a, b in first.config] == ["1", "32", "0", "s"]
    assert [TEMPLATES[a:b] for a, b in first.args] == ["i", "3"]


OVERLOADS = """\
#define EVENT_ARGS &b, 0
void g() {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&a, 0);
  cudaEventCreate(EVENT_ARGS);
}
"""


def test_argument_counts_come_from_the_ast(options: Options) -> None:
    f = _facts(OVERLOADS, options)
    calls = [i for i in f.identifiers if i.name == "cudaEventCreate" and i.region == Region.CODE]
    assert [len(c.call_args or ()) for c in calls] == [1, 2, 2]
    assert all(c.origin == Origin.AST for c in calls)
    macro_made = calls[2].call_args
    assert macro_made is not None and all(start == end for start, end in macro_made)
    assert any(d.code == "HPY109" for d in f.diagnostics)


SYMBOLS = """\
#include <cstdio>
#define CUDA_CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) \\
  printf("%s\\n", cudaGetErrorString(e_)); } while (0)
__constant__ float coeffs[8];
void upload(const float *h) {
  CUDA_CHECK(cudaMemcpyToSymbol(coeffs, h, 8 * sizeof(float)));
}
"""


def test_symbol_argument_inside_error_check_macro(options: Options) -> None:
    f = _facts(SYMBOLS, options)
    (call,) = [i for i in _named(f, SYMBOLS, "cudaMemcpyToSymbol")]
    assert call.origin == Origin.AST and call.region == Region.CODE
    assert call.call_args is not None
    assert [SYMBOLS[a:b] for a, b in call.call_args] == ["coeffs", "h", "8 * sizeof(float)"]
    body = _named(f, SYMBOLS, "cudaGetErrorString")
    assert body and body[0].region == Region.DIRECTIVE
    (macro,) = [i for i in f.identifiers if i.name == "CUDA_CHECK" and i.region == Region.DIRECTIVE]
    assert macro.user_declared


USER_NAMES = """\
cudaError_t cudaMallocHost(int bytes) { return cudaSuccess; }
int cudaHelperSum(int a, int b) { return a + b; }
void h() {
  void *p;
  cudaMallocHost(16);
  cudaMallocHost(&p, 16);
  cudaHelperSum(1, 2);
  cudaFree(p);
}
"""


def test_user_functions_named_like_cuda_apis(options: Options) -> None:
    f = _facts(USER_NAMES, options)
    hosts = _named(f, USER_NAMES, "cudaMallocHost")
    assert [h.user_declared for h in hosts] == [True, True, False]  # definition, user call, CUDA's
    assert all(h.origin == Origin.AST for h in hosts)
    assert all(i.user_declared for i in _named(f, USER_NAMES, "cudaHelperSum"))
    assert not any(i.user_declared for i in _named(f, USER_NAMES, "cudaFree"))
    assert not any(i.user_declared for i in _named(f, USER_NAMES, "cudaError_t"))


def test_an_error_elsewhere_keeps_the_ast_verdicts(options: Options) -> None:
    text = USER_NAMES + "void broken() { this is not C++ @@@; }\n"
    f = _facts(text, options)
    hosts = _named(f, text, "cudaMallocHost")
    assert [h.user_declared for h in hosts] == [True, True, False]
    assert all(h.origin == Origin.AST for h in hosts)


# Garbage the parser reads as a variable CUresult of type CUresult, then reports an error right after it.
RECOVERED = "#include <cuda.h>\nCUresult CUresult 'c';\nCUresult r;\n"


def test_a_declaration_made_up_in_error_recovery_gives_no_verdict() -> None:
    """After translation the same garbage reads as nothing (hipError_t may not be declared yet): the
    text decides whose the name is, the same way both times."""
    from hipify.knowledge.table import load_table

    f = facts(SourceFile("t.cu", RECOVERED), load_table(), Options(cuda_path="none"))
    assert [(i.user_declared, i.origin) for i in _named(f, RECOVERED, "CUresult")] == [
        (False, Origin.AST),
        (False, Origin.TOKEN),
        (False, Origin.AST),
    ]


MACRO_LAUNCHES = """\
#define LAUNCH(kernel, n) kernel<<<(n + 255) / 256, 256>>>(n)
#define CHECK(x) (x)
namespace outer { namespace inner {
__global__ void k(int n) {}
} }
void go(int n) {
  LAUNCH(outer::inner::k, n);
  CHECK((outer::inner::k<<<1, 1>>>(n), cudaGetLastError()));
}
"""


def test_launches_inside_namespaces_and_macros(options: Options) -> None:
    f = _facts(MACRO_LAUNCHES, options)
    launches = _launch_text(f, MACRO_LAUNCHES)
    body = launches["kernel<<<(n + 255) / 256, 256>>>(n)"]
    assert body.region == Region.DIRECTIVE  # rewritten where its text is: the #define
    in_arg = launches["outer::inner::k<<<1, 1>>>(n)"]
    assert in_arg.region == Region.CODE and in_arg.origin == Origin.AST and not in_arg.template


BROKEN = """\
#include <cuda_runtime.h>
#include "no_such_header_anywhere.h"
#include <vector>
__global__ void kern(float *p) { p[0] = 1; }
void g() {
  float *d;
  cudaMalloc(&d, 4 * sizeof(float));
  this is not C++ @@@;
  kern<<<1, 1>>>(d);
  std::vector<int> v;
  undeclared_thing(cudaMemcpyHostToDevice);
  cudaFree(d);
}
"""


def test_parse_errors_keep_every_fact(options: Options) -> None:
    f = _facts(BROKEN, options)
    names = [i.name for i in f.identifiers if i.region == Region.CODE]
    for name in ("cudaMalloc", "cudaMemcpyHostToDevice", "cudaFree"):
        assert name in names
    assert [BROKEN[launch.start : launch.end] for launch in f.launches] == ["kern<<<1, 1>>>(d)"]
    assert f.launches[0].origin == Origin.AST
    codes = [d.code for d in f.diagnostics]
    assert "HPY203" in codes and "HPY109" in codes
    # The missing header did not stop the parse: <vector> after it was still read.
    parsed = parsing.parse(SourceFile("t.cu", BROKEN), TABLE, options)
    errors = [d.spelling for d in parsed.errors]
    assert any("no_such_header_anywhere.h" in e for e in errors)
    assert not any("vector" in e for e in errors), errors


REGIONS = """\
// cudaMalloc in a comment
#if 0
cudaDeviceReset();
#endif
#ifdef __CUDA_ARCH__
__device__ void dev() { __syncthreads(); }
#else
void host() { cudaDeviceSynchronize(); }
#endif
const char *s = "cudaFree";
"""


def test_regions_from_clang_skipped_ranges(options: Options) -> None:
    f = _facts(REGIONS, options)
    region = {i.name: i.region for i in f.identifiers}
    assert region["cudaDeviceReset"] == Region.INACTIVE
    assert region["__syncthreads"] == Region.INACTIVE  # host pass: __CUDA_ARCH__ is undefined
    assert region["cudaDeviceSynchronize"] == Region.CODE
    assert "cudaMalloc" not in region and "cudaFree" not in region  # comment and string
    assert f.comments and REGIONS[f.comments[0][0] : f.comments[0][1]].startswith("// cudaMalloc")


def test_character_offsets_with_non_ascii_text(options: Options) -> None:
    text = (
        '// é ü 漢字\n__constant__ float c[2];\nconst char *s = "ñ";\n'
        "void f(float *h) { float *d; cudaMalloc(&d, 4); /* ß */ cudaMemcpyToSymbol(c, h, 8); }\n"
    )
    f = _facts(text, options)
    for ident in f.identifiers:
        assert text[ident.start : ident.end] == ident.name
    (malloc,) = _named(f, text, "cudaMalloc")
    assert malloc.origin == Origin.AST
    (copy,) = _named(f, text, "cudaMemcpyToSymbol")
    assert copy.call_args is not None and copy.origin == Origin.AST
    assert [text[a:b] for a, b in copy.call_args] == ["c", "h", "8"]


CUB_USING = """\
#include <cub/cub.cuh>
using namespace cub;
template <int B> __global__ void k(int *out) {
  typedef BlockReduce<int, B> R;
  __shared__ typename R::TempStorage t;
  out[0] = R(t).Sum(threadIdx.x);
}
"""


def test_using_namespace_cub_gives_the_qualifier() -> None:
    if TOOLKIT.kind != "toolkit":
        pytest.skip("needs the real CUB headers")
    from hipify.knowledge.table import MappingTable, Row

    table = MappingTable.from_rows(
        TABLE.rows
        + (Row(cuda="cub::BlockReduce", hip="hipcub::BlockReduce", kind="type", api="cub", hip_status="supported"),)
    )
    f = facts(SourceFile("c.cu", CUB_USING), table, Options(cuda_path=TOOLKIT.root))
    (reduce,) = [i for i in f.identifiers if i.name == "BlockReduce"]
    assert reduce.qualifier == "cub" and reduce.origin == Origin.AST
