"""The project model: scans, the include graph, and the facts each file's translation gets."""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from hipify import Options, translate, translate_files
from hipify.cli.cli import main
from hipify.knowledge.table import load_table
from hipify.lexing import shared
from hipify.model import ProjectFacts
from hipify.project.graph import ModelBuilder, ProjectModel, build_model
from hipify.project.scan import FileScan, scan_file, scan_text

WARP = "HIP_ENABLE_WARP_SYNC_BUILTINS"
# The warp-sync define is a need of ROCm 6.x (7.x declares the builtins by default): the project facts that carry it
# are those of a translation for 6.4.
SIX = (6, 4)
MAIN_CU = """\
#include <cuda_runtime.h>
#include <cstdio>
#include "reduce.cuh"

__global__ void total(const float* in, float* out) { out[0] = warp_sum(in[threadIdx.x]); }

int main() {
    float *in, *out;
    cudaMalloc(&in, 32 * sizeof(float));
    cudaMalloc(&out, sizeof(float));
    total<<<1, 32>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
"""
REDUCE_CUH = """\
#pragma once
__device__ inline float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}
"""
CHECK_H = """\
#pragma once
#include <cstdio>
#define cudaCheck(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) std::puts(cudaGetErrorString(e_)); } while (0)
int cudaHelperDevices();
"""
USES_CHECK_CU = """\
#include "check.h"
int cudaHelperDevices() { int n = 0; cudaCheck(cudaGetDeviceCount(&n)); return n; }
"""


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "cache"))


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _model(root: Path, include_dirs: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    table = load_table().at_rocm(SIX)
    options = Options(engine="regex", rocm_version=SIX)
    paths = sorted(str(p) for p in root.rglob("*") if p.is_file())
    scans = [scan_file(p, table, options) for p in paths]
    return build_model(scans, lambda more: [scan_file(p, table, options) for p in more], include_dirs)


# --- the model ---------------------------------------------------------------------------------


def test_scan_records_includes_defines_requirements_and_own_names() -> None:
    scan = scan_text("a.cu", REDUCE_CUH + CHECK_H, load_table().at_rocm(SIX), Options(rocm_version=SIX))
    assert [i.name for i in scan.includes] == ["cstdio"]
    assert scan.required == {WARP}
    assert "cudaCheck" in scan.defines and "cudaCheck" in scan.declares
    assert "cudaHelperDevices" in scan.declares  # a function declaration, not only a use


def test_warp_sync_need_of_a_header_reaches_the_translation_unit(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"main.cu": MAIN_CU, "reduce.cuh": REDUCE_CUH, "other.cu": "int x;\n"})
    model = _model(root)
    main_facts = model.facts_for(str(root / "main.cu"))
    assert main_facts.tu_root and main_facts.tu_defines == (WARP,)
    header = model.facts_for(str(root / "reduce.cuh"))
    assert not header.tu_root and header.tu_defines == ()
    assert model.facts_for(str(root / "other.cu")).tu_defines == ()  # does not include the header


def test_an_include_found_only_in_the_tree_gives_its_directory(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {"src/app/main.cu": '#include "helper.h"\n', "src/include/helper.h": '#include "deep/more.h"\n',
         "src/include/deep/more.h": "int more;\n", "elsewhere/helper.h": "int other;\n"},
    )  # fmt: skip
    model = _model(root)
    facts = model.facts_for(str(root / "src/app/main.cu"))
    # the nearest helper.h (sharing src/), and more.h is found next to it without help
    assert facts.include_dirs == (os.path.realpath(root / "src/include"),)
    closure = model.closure(os.path.realpath(root / "src/app/main.cu"))
    assert os.path.realpath(root / "src/include/deep/more.h") in closure


def test_headers_outside_the_translated_files_are_scanned_when_reached(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"main.cu": MAIN_CU, "reduce.cuh": REDUCE_CUH})
    table, options = load_table().at_rocm(SIX), Options(rocm_version=SIX)
    model = build_model(
        [scan_file(str(root / "main.cu"), table, options)], lambda more: [scan_file(p, table, options) for p in more]
    )
    assert model.facts_for(str(root / "main.cu")).tu_defines == (WARP,)


def test_the_model_does_not_depend_on_the_order_the_scans_arrive_in(tmp_path: Path) -> None:
    """A run adds each scan as its worker returns it, and scans a reached header next: every order of arrival
    gives the same facts."""
    root = _tree(
        tmp_path,
        {"app/main.cu": '#include "../include/helper.h"\n#include <local.h>\n' + MAIN_CU, "app/local.h": "int local;\n",
         "include/helper.h": '#include "reduce.cuh"\n#define cudaCheck(x) x\n', "include/reduce.cuh": REDUCE_CUH,
         "other.cpp": '#include "include/helper.h"\nint f() { return cudaCheck(1); }\n'},
    )  # fmt: skip
    table, options = load_table().at_rocm(SIX), Options(engine="regex", rocm_version=SIX)
    inputs = [str(root / p) for p in ("app/main.cu", "other.cpp", "app/local.h")]

    def facts(order: list[str]) -> list[ProjectFacts]:
        builder = ModelBuilder(inputs)
        waiting = list(order)
        while waiting:
            waiting = builder.add(scan_file(waiting.pop(0), table, options)) + waiting
        model = builder.finish(lambda more: [scan_file(p, table, options) for p in more])
        return [model.facts_for(p) for p in inputs]

    first = facts(inputs)
    assert first[0].tu_defines == (WARP,) and first[0].quote_includes == ("local.h",)
    assert first[1].project_names == ("cudaCheck",)
    assert facts(list(reversed(inputs))) == first
    assert facts([inputs[1], inputs[2], inputs[0]]) == first
    assert _model_of(inputs) == first


def _model_of(inputs: list[str]) -> list[ProjectFacts]:
    table, options = load_table().at_rocm(SIX), Options(engine="regex", rocm_version=SIX)
    model = build_model(
        [scan_file(p, table, options) for p in inputs], lambda more: [scan_file(p, table, options) for p in more]
    )
    return [model.facts_for(p) for p in inputs]


def test_dependencies_digest_follows_the_included_headers(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"main.cu": MAIN_CU, "reduce.cuh": REDUCE_CUH})
    before = _model(root).facts_for(str(root / "main.cu")).dependencies
    (root / "reduce.cuh").write_text(REDUCE_CUH + "// changed\n")
    assert _model(root).facts_for(str(root / "main.cu")).dependencies != before


# --- translation with project facts --------------------------------------------------------------


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_define_goes_before_the_first_include_of_the_main_file(tmp_path: Path, engine: str) -> None:
    root = _tree(tmp_path / "src", {"main.cu": MAIN_CU, "reduce.cuh": REDUCE_CUH})
    out = tmp_path / "out"
    assert main([str(root), "--out-dir", str(out), "--engine", engine, "--rocm", "6.4", "-q"]) == 0
    text = (out / "main.cu").read_text()
    assert text.startswith(f"#define {WARP}\n#include <hip/hip_runtime.h>\n"), text
    header = (out / "reduce.cuh").read_text()
    assert f"#define {WARP}" in header and header.index(f"#define {WARP}") < header.index("__shfl_xor_sync")
    again = tmp_path / "again"
    assert main([str(out), "--out-dir", str(again), "--engine", engine, "--rocm", "6.4", "-q"]) == 0
    assert (again / "main.cu").read_text() == text  # a second run changes nothing


GRAPHS_H = """\
#include <memory>
#include <unordered_map>
struct graph { int uses = 0; };
struct context {
  std::unordered_map<const void*, std::unique_ptr<graph>> cuda_graphs;
  std::unique_ptr<graph> cuda_spare{};
  graph * cuda_graph(const void* key) {
    auto& g = cuda_graphs[key];
    return g ? g.get() : cuda_spare.get();
  }
};
"""
USES_GRAPHS_CU = """\
#include <cuda_runtime.h>
#include "graphs.h"
int run(context* ctx, float* p) { cudaMemset(p, 0, 4); return ctx->cuda_graph(p)->uses; }
"""


def test_project_members_named_like_cuda_are_not_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A member of a template's type (``std::unique_ptr<T> cuda_graphs;``) and a member function returning a
    pointer (``T * cuda_graph(...)``) are the project's declarations, as ``T* cuda_path = ...`` is."""
    root = _tree(tmp_path / "src", {"graphs.h": GRAPHS_H, "run.cu": USES_GRAPHS_CU})
    assert main([str(root), "--check", "--engine", "regex"]) == 1  # there is CUDA to translate
    err = capsys.readouterr().err
    assert "HPY104" not in err, err
    product = "#include <cuda_runtime.h>\nint f(int a, int cuda_n) { return a * cuda_m(cuda_n); }\n"
    _tree(tmp_path / "other", {"p.cu": product})
    assert main([str(tmp_path / "other"), "--check", "--engine", "regex"]) == 1
    assert "cuda_m looks like a CUDA API" in capsys.readouterr().err  # a product's call declares nothing


def test_project_macro_named_like_cuda_is_not_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _tree(tmp_path / "src", {"check.h": CHECK_H, "devices.cu": USES_CHECK_CU})
    assert main([str(root), "--check", "--engine", "regex"]) == 1  # there is CUDA to translate
    err = capsys.readouterr().err
    assert "HPY104" not in err, err


def test_translate_files_is_the_command_lines_translation(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"main.cu": MAIN_CU, "reduce.cuh": REDUCE_CUH})
    results = translate_files({str(root / "main.cu"): MAIN_CU}, Options(engine="regex", rocm_version=SIX))
    assert results[str(root / "main.cu")].text.startswith(f"#define {WARP}\n")


@pytest.mark.hipcc
def test_translation_unit_with_a_warp_header_compiles_with_rocm(tmp_path: Path) -> None:
    from hipify.validate.toolchain import detect

    toolchains = [t for t in detect(rocm="6.4") if t.rocm_version == SIX]
    if not toolchains:
        pytest.skip("no ROCm 6.4 hipcc (run .ci/install_hip.sh to build the ROCm 6.4 chroot)")
    tc = toolchains[0]
    root = _tree(tmp_path / "src", {"main.cu": MAIN_CU, "reduce.cuh": REDUCE_CUH})
    base = Path(tc.chroot) / "tmp" if tc.chroot else tmp_path
    out = Path(base) / f"hipify-project-test-{os.getpid()}"
    try:
        assert main([str(root), "--out-dir", str(out), "--engine", "regex", "--rocm", "6.4", "-q"]) == 0
        import subprocess

        source = tc.inner_path(str(out / "main.cu"))
        cmd = [*tc.hipcc, "--offload-arch=gfx90a", "-std=c++17", "-x", "hip", "-c", source, "-o", "/dev/null"]
        proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **tc.env}, timeout=600)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    finally:
        shutil.rmtree(out, ignore_errors=True)


def test_a_name_shadowed_in_one_program_is_cuda_s_in_another(tmp_path: Path) -> None:
    """A tree of separate programs: one defines its own __syncwarp; the other's is CUDA's."""
    root = _tree(
        tmp_path,
        {"a/main.cu": '#include "shim.h"\n__global__ void k() { __syncwarp(); }\n', "a/shim.h": "#define __syncwarp()\n",
         "b/main.cu": '#include "util.h"\n', "b/util.h": "__device__ void f() { __syncwarp(); }\n"},
    )  # fmt: skip
    model = _model(root)
    assert model.facts_for(str(root / "a/main.cu")).shadowed == ("__syncwarp",)
    assert model.facts_for(str(root / "b/util.h")).shadowed == ()
    assert model.facts_for(str(root / "b/main.cu")).shadowed == ()


def test_the_hip_runtime_comes_first_in_a_translation_unit_as_nvcc_s_does(tmp_path: Path) -> None:
    """nvcc includes the CUDA runtime before a .cu file's first line, so a project macro such as
    `#define T int` in an earlier header never reaches it; the translation puts HIP's first too."""
    root = _tree(
        tmp_path / "src",
        {"host.cpp": '#include <vector>\n#include "common.h"\n#include "part.h"\nint main() { return 0; }\n',
         "common.h": "#pragma once\n#define T int\n", "part.h": "#pragma once\n#include <cuda_runtime.h>\n"},
    )  # fmt: skip
    out = tmp_path / "out"
    assert main([str(root), "--out-dir", str(out), "--engine", "regex", "-q"]) == 0
    text = (out / "host.cpp").read_text()
    assert text.startswith("#include <hip/hip_runtime.h>\n#include <vector>\n"), text
    again = tmp_path / "again"
    assert main([str(out), "--out-dir", str(again), "--engine", "regex", "-q"]) == 0
    assert (again / "host.cpp").read_text() == text


MOVED_MAIN_CU = """\
#include <cstdio>
#include <vector>
#include <cuda.h>
#include "cuda_runtime.h"  // kept comment
#ifdef USE_DRIVER
#include <cuda.h>
#endif

__global__ void fill(int* out) { out[threadIdx.x] = threadIdx.x; }
"""


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_the_runtime_include_of_a_main_file_moves_to_the_top_rather_than_repeating(tmp_path: Path, engine: str) -> None:
    """`#include <cuda.h>` after the standard headers: the HIP runtime goes first (as nvcc's implicit one does),
    and the file's own include moves there: its line goes, the later ones are duplicates as before."""
    root = _tree(tmp_path / "src", {"main.cu": MOVED_MAIN_CU})
    out = tmp_path / "out"
    assert main([str(root), "--out-dir", str(out), "--engine", engine, "-q"]) == 0
    text = (out / "main.cu").read_text()
    assert text.startswith("#include <hip/hip_runtime.h>\n#include <cstdio>\n#include <vector>\n// kept"), text
    assert text.count("hip_runtime.h") == 1, text
    again = tmp_path / "again"
    assert main([str(out), "--out-dir", str(again), "--engine", engine, "-q"]) == 0
    assert (again / "main.cu").read_text() == text


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_a_runtime_include_inside_an_if_stays_where_it_is(tmp_path: Path, engine: str) -> None:
    """Only an include compiled whatever the macros can stand for the top one."""
    source = "#include <cstdio>\n#ifndef NO_CUDA\n#include <cuda_runtime.h>\n#endif\n__global__ void k() {}\n"
    root = _tree(tmp_path / "src", {"main.cu": source})
    out = tmp_path / "out"
    assert main([str(root), "--out-dir", str(out), "--engine", engine, "-q"]) == 0
    text = (out / "main.cu").read_text()
    assert text.startswith(
        "#include <hip/hip_runtime.h>\n#include <cstdio>\n#ifndef NO_CUDA\n#include <hip/hip_runtime.h>\n"
    )


def test_an_angled_include_found_only_next_to_the_file_is_quoted(tmp_path: Path) -> None:
    root = _tree(
        tmp_path / "src",
        {"main.cu": "#include <boost/numeric/interval.hpp>\n#include <vector>\nint main() { return 0; }\n",
         "boost/numeric/interval.hpp": "#pragma once\n"},
    )  # fmt: skip
    out = tmp_path / "out"
    assert main([str(root), "--out-dir", str(out), "--engine", "regex", "-q"]) == 0
    text = (out / "main.cu").read_text()
    assert '#include "boost/numeric/interval.hpp"\n#include <vector>\n' in text


# --- approximate scans -------------------------------------------------------------------------

BLOCKED_H = """\
#pragma once
#include <cuda_runtime.h>
size_t workspace_bytes(int m, cudaEmulationMantissaControl control) {
    return control == CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC ? 2 * m : m;
}
"""
# Names workspace_bytes only where it declares its own function of that name (not a use of the header's).
DECLARES_ONLY_CU = """\
#include "blocked.h"
static size_t workspace_bytes(int m) { return (size_t)m; }
int main() { return 0; }
"""
USES_CU = """\
#include "blocked.h"
int main() { return (int)workspace_bytes(4, CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC); }
"""
PLAIN_CPP = "#include <vector>\nint workspace_total(const std::vector<int>& v) { return (int)v.size(); }\n"


def test_an_approximate_scan_differs_from_the_exact_one_only_in_its_uses() -> None:
    table, options = load_table().at_rocm(SIX), Options(engine="regex", rocm_version=SIX)
    for text in (MAIN_CU, REDUCE_CUH, CHECK_H, USES_CHECK_CU, DECLARES_ONLY_CU, PLAIN_CPP):
        exact = scan_text("f.cu", text, table, options)
        approximate = scan_text("f.cu", text, table, options, exact=False)
        assert approximate.approximate and not exact.approximate
        assert approximate.uses >= exact.uses  # every word, the names it only declares too
        assert replace(approximate, uses=exact.uses, approximate=False) == exact
    # A file using an API HIP lacks reads its declarations either way (it has blocked ones).
    blocked = scan_text("b.h", BLOCKED_H, table, options, exact=False)
    assert not blocked.approximate and [b.name for b in blocked.blocked] == ["workspace_bytes"]


def _exact_and_approximate(root: Path) -> tuple[ProjectModel, ProjectModel, list[str]]:
    """The model of the tree's exact scans, the model of its approximate ones, and what the latter read again."""
    table, options = load_table().at_rocm(SIX), Options(engine="regex", rocm_version=SIX)
    paths = sorted(str(p) for p in root.rglob("*") if p.is_file())
    exact = build_model([scan_file(p, table, options) for p in paths], lambda more: [])
    rescanned: list[str] = []

    def rescan(more: Sequence[str]) -> list[FileScan]:
        rescanned.extend(more)
        return [scan_file(p, table, options) for p in more]

    approximate = [scan_text(p, Path(p).read_text(), table, options, exact=False) for p in paths]
    model = build_model(approximate, lambda more: [], rescan=rescan)
    for path in paths:
        assert model.facts_for(path) == exact.facts_for(path)
    return exact, model, rescanned


def test_the_model_asks_for_exact_scans_where_they_can_change_the_facts(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"blocked.h": BLOCKED_H, "own.cu": DECLARES_ONLY_CU, "uses.cu": USES_CU, "p.cpp": PLAIN_CPP})
    _, model, rescanned = _exact_and_approximate(root)
    # own.cu spells workspace_bytes, the name of a blocked declaration: only it is read again
    assert rescanned == [str(root / "own.cu")]
    assert model.facts_for(str(root / "uses.cu")).blocked_uses  # the use is still seen
    assert not model.facts_for(str(root / "own.cu")).blocked_uses  # declaring its own is no use


# a main no smaller unit can hold (a parameter of a type HIP lacks: the model reads it, whatever the compiler says)
BLOCKED_MAIN_CU = "int main(int argc, cudaKeyValuePair* pairs) { return argc; }\n"
OTHER_MAIN_CU = '#include <cstdio>\nint main() { cudaDeviceSynchronize(); std::printf("main\\n"); return 0; }\n'
C_CALLS_MAIN = "int main(int argc, char** argv) { return argc > 1 ? main(argc - 1, argv) : 0; }\n"


def test_a_blocked_main_is_no_use_of_another_cpp_file(tmp_path: Path) -> None:
    """C++ never uses main: a translation unit whose main needs an API HIP lacks does not make every other program's
    main a use of it (nor cost each of them an exact scan); C may call main, so a C file is still read exactly."""
    files = {"blocked.cu": BLOCKED_MAIN_CU, "other.cu": OTHER_MAIN_CU, "calls.c": C_CALLS_MAIN}
    root = _tree(tmp_path / "tree", files)
    exact, model, rescanned = _exact_and_approximate(root)
    assert "main" in exact.blocked
    assert rescanned == [str(root / "calls.c")]
    assert not model.facts_for(str(root / "other.cu")).blocked_uses
    assert model.facts_for(str(root / "calls.c")).blocked_uses == (("main", exact.blocked["main"][0]),)


def test_the_scan_keeps_its_lexing_for_the_translation_of_the_same_text() -> None:
    table, options = load_table().at_rocm(SIX), Options(engine="regex", rocm_version=SIX)
    shared.clear()
    text = MAIN_CU + "// kept\n"
    scan_text("k.cu", text, table, options)
    kept = shared.take(text)  # the scan's lexing, handed over once
    assert kept is not shared.take(text)  # no longer kept: a second reader lexes afresh
    assert kept == shared.take(text)
    # The translation of a scanned text takes the kept lexing, and gives what a fresh one gives.
    scan_text("k.cu", text, table, options)
    assert shared.is_kept(text)
    first = translate(text, "k.cu", options, table)
    assert not shared.is_kept(text)
    assert first == translate(text, "k.cu", options, table)


def test_a_name_after_a_directive_line_is_not_declared_by_its_keyword() -> None:
    table, options = load_table().at_rocm(SIX), Options(rocm_version=SIX)
    text = "void f(float* p) {\n#ifdef DEBUG\n  g();\n#endif\n  cudaFree(p);\n#endif\n  cudaCheckState(p);\n}\n"
    scan = scan_text("a.cu", text, table, options)
    assert scan.shadows == frozenset() and scan.declares == frozenset()  # ``endif cudaFree(`` is no declaration
    own = "cudaError_t cudaFree(void* p);\nint cudaCheckState(float* p);\n#define X 1\nint cudaOther(int);\n"
    scan = scan_text("b.cu", own, table, options)
    assert "cudaFree" in scan.shadows and {"cudaCheckState", "cudaOther"} <= scan.declares


def test_declared_names_are_found_whatever_stands_between_the_type_and_the_name() -> None:
    """The scan passes over an occurrence after a non-word token at once, reads further back where many blanks
    stand before a name, and searches the masked text itself where the name is also a word of an include line."""
    table, options = load_table().at_rocm(SIX), Options(rocm_version=SIX)
    far = "cudaError_t" + " " * 40 + "\\\n" + " " * 80 + "cudaFree(void* p);\n"
    scan = scan_text("far.cu", far, table, options)
    assert scan.shadows == frozenset({"cudaFree"})  # more blanks than a first look reads back
    calls = "void f(float* p) {" + " " * 100 + "cudaFree(p); (cudaFree)(p); x = cudaFree;\n}\n"
    assert scan_text("calls.cu", calls, table, options).shadows == frozenset()
    pointer = "char *" + " " * 70 + "cudaPath = 0;\nint &cudaRef = n;\n"
    assert {"cudaPath", "cudaRef"} <= scan_text("ptr.cu", pointer, table, options).declares
    included = (
        "#include <cudaMalloc/cudaMalloc.h>\nint cudaMalloc(void** p, int n);\nint g() { return cudaMalloc(0, 1); }\n"
    )
    scan = scan_text("inc.cu", included, table, options)
    assert "cudaMalloc" in scan.shadows and "cudaMalloc" in scan.uses
    only_included = "#include <cudaMalloc.h>\nint g() { return 0; }\n"
    scan = scan_text("only.cu", only_included, table, options)
    assert scan.shadows == frozenset() and "cudaMalloc" not in scan.uses  # an include line's words are no uses


def test_the_scan_and_the_translation_read_the_directive_lines_of_one_lexing_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The translation of a file takes the scan's lexing back, and with it the directive lines the scan read."""
    from hipify.lexing import text_facts

    text = '#include "reduce.cuh"\n#if defined(X) /* c */\n#define Y 1\n#endif\n' + MAIN_CU
    table, options = load_table().at_rocm(SIX), Options(engine="regex", rocm_version=SIX)
    alone = translate(text, path="main.cu", options=options).text  # lexed and read by the translation alone
    shared.clear()
    calls: list[int] = []
    real = text_facts._directives
    monkeypatch.setattr(text_facts, "_directives", lambda t, lexed: calls.append(1) or real(t, lexed))
    scan_text("main.cu", text, table, options)
    assert translate(text, path="main.cu", options=options).text == alone
    assert calls == [1]
    lexed = shared.lex_kept(text + "\n")
    assert text_facts.directives_of(text + "\n", lexed) == text_facts.directives_of(text + "\n", lexed)
    assert text_facts.directives_of(text + "\n", lexed) is not text_facts.directives_of(text + "\n", lexed)
    assert len(calls) == 2
    shared.clear()


def test_a_scans_uses_travel_as_one_string_and_answer_as_a_set() -> None:
    import pickle

    from hipify.project.words import Words

    scan = scan_text("m.cu", MAIN_CU, load_table().at_rocm(SIX), Options(engine="regex", rocm_version=SIX), exact=False)
    words = {"cudaMalloc", "warp_sum", "main", "total", "threadIdx"}
    assert words <= scan.uses.set and "cudaMalloc" in scan.uses and "cudaMallo" not in scan.uses
    arrived = pickle.loads(pickle.dumps(scan))
    assert arrived.uses._set is None  # nothing asked yet: no set made
    assert arrived == scan and arrived.uses == scan.uses and hash(arrived.uses) == hash(scan.uses)
    arrived = pickle.loads(pickle.dumps(scan))
    # What crosses the pipe is the words' text, not a set of string objects (each made and hashed on arrival).
    assert pickle.dumps(Words(words)).count(b"cudaMalloc") == 1
    assert arrived.uses & {"warp_sum", "absent"} == {"warp_sum"} and arrived.uses._set is not None
    assert (arrived.uses | {"x"}) >= words and arrived.uses >= Words(words)
    assert arrived.uses.union({"y"}, {"z"}) == scan.uses.set | {"y", "z"}
    assert not arrived.uses.isdisjoint({"main"}) and arrived.uses.isdisjoint({"nothing_here"})
    assert Words(["b", "a"]) == Words(["a", "b"]) == frozenset({"a", "b"}) and Words() == frozenset()
    assert not Words() and Words(["a"]) and len(Words(["a", "b"])) == 2 and sorted(Words(["b", "a"])) == ["a", "b"]
    # The API families of its uses are worked out in the scan (a build file's translation is told them).
    assert scan.families == {"runtime"}


SAMPLE_MAIN = """\
#include <helper_cuda.h>
#include "../Common/helper_timer.h"
#include "helper_string.h"
int main(int argc, char** argv) {
  int dev = findCudaDevice(argc, (const char**)argv);
  StopWatchInterface* timer = NULL;
  sdkCreateTimer(&timer);
  checkCudaErrors(cudaSetDevice(dev));
  return 0;
}
"""


def test_a_missing_samples_helper_is_reported_once_with_what_the_file_uses(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"app/main.cu": SAMPLE_MAIN, "app/helper_string.h": "int checkCmdLineFlag;\n"})
    model = _model(root)
    assert model.facts_for(str(root / "app/main.cu")).missing_helpers == ("helper_cuda.h", "helper_timer.h")
    # (without the compatibility header: with it, the output gets HIP versions of the helpers, HPY035)
    results = translate_files({str(root / "app/main.cu"): SAMPLE_MAIN}, Options(compat_header=False))
    found = [d for d in results[str(root / "app/main.cu")].diagnostics if d.code == "HPY125"]
    assert [(d.subject, d.line) for d in found] == [("helper_cuda.h", 1), ("helper_timer.h", 2)]
    assert (
        "checkCudaErrors, findCudaDevice" in found[0].message
        and "StopWatchInterface, sdkCreateTimer" in found[1].message
    )
