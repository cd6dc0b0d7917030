"""NVIDIA samples helpers a tree includes without holding them: the output gets hipify-py's HIP versions beside the
compatibility header (HPY035); a tree that holds its own copy keeps it."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify import Options, translate_files
from hipify.cli.cli import main
from hipify.knowledge.samples_helpers import HELPERS, HIP_VERSIONS, helper_entry, helpers_of_entries, hip_version
from hipify.translation.api import compat_header, samples_helpers

MAIN = """\
#include <cstdio>
#include "../../Common/helper_cuda.h"
#include <helper_timer.h>
int main(int argc, char** argv) {
  int dev = findCudaDevice(argc, (const char**)argv);
  StopWatchInterface* timer = NULL;
  sdkCreateTimer(&timer);
  checkCudaErrors(cudaSetDevice(dev));
  return 0;
}
"""


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_a_missing_helper_is_included_from_our_version_beside_the_compat_header(tmp_path: Path, engine: str) -> None:
    if engine == "clang":
        from hipify.translation.engines import clang_status

        if not clang_status()[0]:
            pytest.skip("libclang is not usable here")
    root = _tree(tmp_path, {"src/app/main.cu": MAIN})
    main_cu = str(root / "src/app/main.cu")
    results = translate_files({main_cu: MAIN}, Options(engine=engine), compat_dir=str(root / "src"))
    result = results[main_cu]
    assert '#include "../helper_cuda.h"\n#include "../helper_timer.h"\n' in result.text
    notes = [d for d in result.diagnostics if d.code == "HPY035"]
    assert [d.subject for d in notes] == ["helper_cuda.h", "helper_timer.h"]
    assert "HIP version" in notes[0].message and not [d for d in result.diagnostics if d.code == "HPY125"]
    assert set(result.compat) >= {helper_entry("helper_cuda.h"), helper_entry("helper_timer.h")}
    # helper_cuda.h includes helper_string.h: written too
    assert sorted(samples_helpers(results.values())) == ["helper_cuda.h", "helper_string.h", "helper_timer.h"]
    assert compat_header(results.values()) is None  # no catalog entry: the helpers are files of their own
    again = translate_files({main_cu: result.text}, Options(engine=engine), compat_dir=str(root / "src"))
    assert again[main_cu].text == result.text


def test_a_tree_holding_its_own_copy_keeps_it(tmp_path: Path) -> None:
    own = "#pragma once\n#define checkCudaErrors(x) (x)\n"
    root = _tree(tmp_path, {"app/main.cu": MAIN, "Common/helper_cuda.h": own})
    main_cu = str(root / "app/main.cu")
    results = translate_files({main_cu: MAIN, str(root / "Common/helper_cuda.h"): own}, Options())
    assert '#include "../../Common/helper_cuda.h"' in results[main_cu].text  # the tree's own
    assert sorted(samples_helpers(results.values())) == ["helper_timer.h"]


def test_without_the_compat_header_the_include_is_reported(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"app/main.cu": MAIN})
    main_cu = str(root / "app/main.cu")
    results = translate_files({main_cu: MAIN}, Options(compat_header=False))
    assert [d.subject for d in results[main_cu].diagnostics if d.code == "HPY125"] == [
        "helper_cuda.h",
        "helper_timer.h",
    ]
    assert '"../../Common/helper_cuda.h"' in results[main_cu].text and not samples_helpers(results.values())


def test_the_run_writes_the_helpers_beside_the_compat_header(tmp_path: Path) -> None:
    root = _tree(tmp_path / "in", {"app/main.cu": MAIN})
    out = tmp_path / "out"
    assert main([str(root), "--out-dir", str(out), "-q"]) == 0
    for helper in ("helper_cuda.h", "helper_string.h", "helper_timer.h"):
        assert (out / helper).read_text(encoding="utf-8") == hip_version(helper)
    assert (out / "hipify_compat.h").is_file()
    assert '#include "../helper_cuda.h"' in (out / "app/main.cu").read_text(encoding="utf-8")


def test_each_version_provides_the_names_its_helper_declares() -> None:
    """The names our versions define are those the samples' helpers declare (knowledge.samples_helpers)."""
    for helper in HIP_VERSIONS:
        text = "".join(hip_version(h) for h in helpers_of_entries([helper_entry(helper)]))
        assert "hipify-py" in text.split("\n", 1)[0]  # ours, saying so
        missing = [name for name in HELPERS[helper] if name not in text]
        allowed = {"StopWatchWin", "sdkLoadPPM4", "sdkComparePGM", "sdkComparePPM", "sdkCompareDataAsFloatThreshold",
                   "sdkCompareBin2BinFloat", "sdkCompareBin2BinUint", "sdkDumpBin", "sdkReadFileBlocks",
                   "compareDataAsFloatThreshold", "getCmdLineArgumentListString", "make_int2", "make_int3",
                   "make_int4"}  # fmt: skip
        assert not [n for n in missing if n not in allowed], (helper, missing)


@pytest.mark.hipcc
def test_the_versions_compile_with_hipcc(rocm) -> None:  # type: ignore[no-untyped-def]
    for helper in HIP_VERSIONS:
        (rocm.work / helper).write_text(hip_version(helper), encoding="utf-8")
    includes = "".join(f'#include "{h}"\n' for h in sorted(HIP_VERSIONS))
    source = rocm.work / "uses.hip"
    source.write_text(
        includes
        + """
__global__ void k(float3* p) { p[1] = normalize(cross(p[0], make_float3(1.0f))) + lerp(p[0], p[0], 0.5f); }
int main(int argc, char** argv) {
  int d = findCudaDevice(argc, (const char**)argv);
  StopWatchInterface* t = nullptr;
  sdkCreateTimer(&t);
  sdkStartTimer(&t);
  float3* p;
  checkCudaErrors(hipMalloc(&p, 2 * sizeof(float3)));
  k<<<1, 1>>>(p);
  getLastCudaError("k");
  sdkStopTimer(&t);
  float a[3] = {1, 2, 3};
  return sdkCompareL2fe(a, a, 3, 1e-6f) && d >= 0 && sdkGetTimerValue(&t) >= 0 ? 0 : 1;
}
""",
        encoding="utf-8",
    )
    proc = rocm.compile(source)
    assert proc.returncode == 0, proc.stderr[-3000:]
