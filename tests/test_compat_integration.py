"""The compatibility header in translation: included where used, written where the output goes."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify import Options, translate
from hipify.cli.cli import main
from hipify.compat import HEADER_NAME, entries_in

KERNEL = """\
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(float* x, unsigned* u) {
  auto t = cg::tiled_partition<32>(cg::this_thread_block());
  x[0] = cg::reduce(t, x[1], cg::plus<float>());
  __syncwarp();
  u[0] = umin(u[1], u[2]);
}
"""
PLAIN = "#include <cuda_runtime.h>\n__global__ void z(float* x) { x[0] = 1; }\n"


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "cache"))


def _tree(root: Path) -> Path:
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "k.cu").write_text(KERNEL)
    (root / "plain.cu").write_text(PLAIN)
    return root


@pytest.mark.parametrize(("rocm", "syncwarp"), [((6, 4), {"syncwarp"}), ((7, 2), set())])
def test_names_it_provides_stay_and_the_header_is_included(rocm: tuple[int, int], syncwarp: set[str]) -> None:
    result = translate(KERNEL, "k.cu", Options(engine="regex", use_cache=False, rocm_version=rocm))
    assert '#include "hipify_compat.h"' in result.text
    assert "cooperative_groups/reduce.h" not in result.text  # its include became the header's
    assert "__syncwarp();" in result.text and "umin(u[1], u[2])" in result.text
    # ROCm 7 declares __syncwarp (the header's own serves only a 32-bit mask there)
    assert set(result.compat) == {"cg_functional", "cg_reduce", "integer_min_max"} | syncwarp
    assert not [d for d in result.diagnostics if d.code in ("HPY101", "HPY104")]


def test_two_headers_the_compat_header_stands_for_become_one_include() -> None:
    text = KERNEL.replace(
        "#include <cooperative_groups/reduce.h>\n",
        "#ifdef X\n#include <nvtx3/nvtx3.hpp>\n#endif\n#include <cooperative_groups/reduce.h>\n"
        "#include <cooperative_groups/scan.h>\n#ifdef Y\n#include <nvtx3/nvtx3.hpp>\n#endif\n",
    )
    result = translate(text, "k.cu", Options(engine="regex", use_cache=False))
    # under #ifdef X: its own include (the others may be skipped); after the unconditional one, none needed
    assert result.text.count('#include "hipify_compat.h"') == 2
    assert (
        '#ifdef X\n#include "hipify_compat.h"\n#endif\n#include "hipify_compat.h"\n\n#ifdef Y\n\n#endif' in result.text
    )
    assert translate(result.text, "k.cu", Options(engine="regex", use_cache=False)).text == result.text


def test_off_with_the_flag_the_uses_are_reported() -> None:
    options = Options(engine="regex", use_cache=False, compat_header=False, rocm_version=(6, 4))
    result = translate(KERNEL, "k.cu", options)
    assert "hipify_compat.h" not in result.text and result.compat == ()
    assert {d.subject for d in result.diagnostics if d.code == "HPY101"} >= {"umin"}
    assert {d.subject for d in result.diagnostics if d.code == "HPY106"} >= {"__syncwarp"}  # ROCm 7 has it


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_out_dir_gets_one_header_holding_what_is_used(tmp_path: Path, engine: str) -> None:
    src, out = _tree(tmp_path / "src"), tmp_path / "out"
    assert main([str(src), "--out-dir", str(out), "--engine", engine, "-q"]) == 0
    assert '#include "../hipify_compat.h"' in (out / "sub" / "k.cu").read_text()
    assert "hipify_compat.h" not in (out / "plain.cu").read_text()
    header = (out / HEADER_NAME).read_text()
    assert entries_in(header) == {"cg_functional", "cg_reduce", "integer_min_max"}  # ROCm 7 has __syncwarp
    # The output translated again: the same tree, header included (it is not a source to translate).
    again = tmp_path / "again"
    assert main([str(out), "--out-dir", str(again), "--engine", engine, "-q"]) == 0
    assert (again / HEADER_NAME).read_text() == header
    assert (again / "sub" / "k.cu").read_text() == (out / "sub" / "k.cu").read_text()
    assert main([str(out), "--check", "--engine", engine, "-q"]) == 0


def test_in_place_writes_the_header_at_the_root_and_check_asks_for_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _tree(tmp_path / "src")
    assert main([str(src), "--check", "--engine", "regex"]) == 1
    assert "would write" in capsys.readouterr().err
    assert main([str(src), "--in-place", "--no-backup", "--engine", "regex", "-q"]) == 0
    assert (src / HEADER_NAME).is_file()
    assert main([str(src), "--check", "--engine", "regex", "-q"]) == 0


def test_diff_shows_the_new_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _tree(tmp_path / "src")
    assert main([str(src), "--diff", "--engine", "regex", "-q"]) == 1
    out = capsys.readouterr().out
    assert "--- /dev/null" in out and HEADER_NAME in out and "+#define HIPIFY_PY_COMPAT_H" in out


def test_a_project_that_defines_the_name_itself_keeps_its_own(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "shim.h").write_text("#pragma once\n#define __syncwarp()\n")
    (src / "k.cu").write_text('#include "shim.h"\n__global__ void k() { __syncwarp(); }\n')
    out = tmp_path / "out"
    assert main([str(src), "--out-dir", str(out), "--engine", "regex", "-q"]) == 0
    assert "hipify_compat.h" not in (out / "k.cu").read_text()
    assert not (out / HEADER_NAME).exists()


GROUPS = """\
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
__global__ void k(const int* in, unsigned long long* out) {
  cg::coalesced_group active = cg::coalesced_threads();
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  out[0] = active.ballot(in[0] > 0) + cg::inclusive_scan(tile, in[1]);
  out[1] = cg::labeled_partition(tile, in[2]).size();
}
"""


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_group_features_through_an_alias_and_members_bring_their_entries_and_defines(engine: str) -> None:
    result = translate(GROUPS, "k.cu", Options(engine=engine, use_cache=False, rocm_version=(6, 4)))
    assert set(result.compat) == {"cg_scan", "cg_labeled_partition", "cg_warp_sync_members"}
    lines = result.text.splitlines()
    # ROCm 6 declares the group votes only under the macro: defined before the HIP runtime.
    assert lines.index("#define HIP_ENABLE_WARP_SYNC_BUILTINS") < lines.index("#include <hip/hip_runtime.h>")
    assert '#include "hipify_compat.h"' in lines and "cooperative_groups/scan.h" not in result.text
    again = translate(result.text, "k.cu", Options(engine=engine, use_cache=False, rocm_version=(6, 4)))
    assert again.text == result.text
    # ROCm 7 declares them by default: the same entries, no definition
    seven = translate(GROUPS, "k.cu", Options(engine=engine, use_cache=False, rocm_version=(7, 2)))
    assert set(seven.compat) == set(result.compat) and "HIP_ENABLE_WARP_SYNC_BUILTINS" not in seven.text


@pytest.mark.parametrize(
    "text",
    [
        # another class's members, in a file that does not use cooperative groups
        "#include <bitset>\nbool f(std::bitset<4> b) { return b.any() && b.all(); }\n",
        # the standard library's scan, and a function of the user's own with the same name
        "#include <numeric>\nvoid f(int* a) { std::inclusive_scan(a, a + 4, a); }\n",
        "namespace mine { int labeled_partition(int x); }\nint g() { return mine::labeled_partition(1); }\n",
        # a member called on a cooperative group before ROCm 6.2 would be the same; here: not a call
        "#include <cooperative_groups.h>\nstruct S { int any; };\nint h(S s) { return s.any; }\n",
    ],
)
def test_names_like_group_features_elsewhere_bring_nothing(text: str) -> None:
    for engine in ("regex", "clang"):
        result = translate(text, "k.cu", Options(engine=engine, use_cache=False))
        assert result.compat == () and "HIP_ENABLE_WARP_SYNC_BUILTINS" not in result.text, engine


POLYFILL = """\
#include <cuda_bf16.h>
#if (__CUDACC_VER_MAJOR__ < 12)
__device__ inline __nv_bfloat162 __ldcs(const __nv_bfloat162* address) {
  unsigned int bits = __ldcs(reinterpret_cast<const unsigned int*>(address));
  return *reinterpret_cast<__nv_bfloat162*>(&bits);
}
#endif
__global__ void k(__nv_bfloat162* out, const __nv_bfloat162* in) { out[threadIdx.x] = __ldcs(in + threadIdx.x); }
"""


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_a_polyfill_only_an_old_toolkit_compiles_leaves_the_name_to_the_compatibility_header(
    tmp_path: Path, engine: str
) -> None:
    # The condition is decided as a current CUDA build decides it (the polyfill is skipped), so __ldcs is CUDA's
    # again: the compatibility header provides it, in the file and in the project's view of the file.
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cu").write_text(POLYFILL)
    assert main([str(tmp_path / "src"), "--out-dir", str(tmp_path / "out"), "--engine", engine, "-q"]) == 0
    assert "cache_hinted_loads" in entries_in((tmp_path / "out" / HEADER_NAME).read_text())
    text = (tmp_path / "out" / "k.cu").read_text()
    assert '#include "hipify_compat.h"' in text and "#if (__CUDACC_VER_MAJOR__ < 12)" not in text


def test_a_declaration_a_current_build_compiles_stays_the_projects_own() -> None:
    kept = POLYFILL.replace("(__CUDACC_VER_MAJOR__ < 12)", "(__CUDACC_VER_MAJOR__ >= 12)")
    result = translate(kept, "k.cu", Options(engine="regex", use_cache=False))
    assert "cache_hinted_loads" not in result.compat


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_overloads_for_some_types_come_only_with_those_types(engine: str) -> None:
    """atomicAdd on __half2 needs the compatibility header's overload; atomicAdd on an int (also what inline PTX
    becomes) needs nothing, so a second translation of the output adds nothing either."""
    options = Options(engine=engine, use_cache=False)
    plain = translate("__global__ void k(int* h) { atomicAdd(h, 1); }\n", "a.cu", options)
    assert plain.compat == () and HEADER_NAME not in plain.text
    half = "#include <cuda_fp16.h>\n__global__ void k(__half2* h) { atomicAdd(h, __float2half2_rn(1.0f)); }\n"
    result = translate(half, "a.cu", options)
    assert result.compat == ("half_atomic_add",) and f'#include "{HEADER_NAME}"' in result.text
    again = translate(result.text, "a.hip", options)
    assert again.text == result.text
