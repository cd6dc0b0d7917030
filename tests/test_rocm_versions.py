"""Translation for a target ROCm release (shipped table, regex engine): the table as each release reads it, the
uses another release translates otherwise (HPY022), and what the report says of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hipify import Options, translate
from hipify.cli.cli import main
from hipify.knowledge.table import MappingTable, load_table, release_for
from hipify.options import DEFAULT_ROCM
from hipify.validate.corpus import default_corpus_dir

SIX, SEVEN = (6, 4), (7, 2)


def _tx(text: str, rocm: tuple[int, int], path: str = "k.cu") -> tuple[str, list[tuple[str, str, str]]]:
    result = translate(text, path, Options(engine="regex", use_cache=False, rocm_version=rocm))
    return result.text, [(d.code, d.subject, d.message) for d in result.diagnostics]


@pytest.fixture(scope="module")
def table() -> MappingTable:
    return load_table()


@pytest.mark.parametrize(
    ("target", "release"),
    [((5, 7), "6.4"), ((6, 2), "6.4"), ((6, 4), "6.4"), ((7, 0), "7.2"), ((7, 2), "7.2"), ((8, 0), "7.2")],
)
def test_a_target_reads_the_release_of_its_major_version(target: tuple[int, int], release: str) -> None:
    assert release_for(target, ("6.4", "7.2")) == release


def test_the_default_target_is_the_newest_release(table: MappingTable) -> None:
    assert Options().rocm_version == DEFAULT_ROCM and table.target_releases[-1] == "7.2"
    assert table.at_rocm(DEFAULT_ROCM) is table  # the rows' own fields are the newest release's
    six = table.at_rocm(SIX)
    assert six is table.at_rocm((6, 1)) and six.target_releases == table.target_releases
    assert six.lookup("cublasCgemm").hip == "hipblasCgemm_v2" and table.lookup("cublasCgemm").hip == "hipblasCgemm"
    # a row of a release's view holds the other release's
    assert six.lookup("cublasCgemm").at("7.2").hip == "hipblasCgemm"


def test_what_only_the_newer_release_has_is_reported_for_the_older(table: MappingTable) -> None:
    text = "#include <cublas_v2.h>\nvoid f(cublasHandle_t h, void* w) { cublasSetWorkspace(h, w, 1024); }\n"
    out, findings = _tx(text, SIX)
    assert "cublasSetWorkspace(h, w, 1024)" in out
    assert ("HPY106", "cublasSetWorkspace") in [(c, s) for c, s, _ in findings]
    [note] = [m for c, s, m in findings if c == "HPY022"]
    assert note == "cublasSetWorkspace -> left as written for the target ROCm; ROCm 7.2: hipblasSetWorkspace"
    out, findings = _tx(text, SEVEN)
    assert "hipblasSetWorkspace(h, w, 1024)" in out and "HPY106" not in [c for c, _, _ in findings]
    [note] = [m for c, s, m in findings if c == "HPY022"]
    assert note == "cublasSetWorkspace -> hipblasSetWorkspace for the target ROCm; ROCm 6.4: left as written (HPY106)"


def test_a_macro_one_release_needs_is_a_difference_too() -> None:
    text = "__global__ void k(int* x) { x[0] = __any_sync(__activemask(), x[1]); }\n"
    six, _ = _tx(text, SIX)
    seven, findings = _tx(text, SEVEN)
    assert six.startswith("#define HIP_ENABLE_WARP_SYNC_BUILTINS\n") and "HIP_ENABLE_WARP_SYNC_BUILTINS" not in seven
    notes = [m for c, s, m in findings if c == "HPY022" and s == "__activemask"]
    assert notes == ["__activemask -> __activemask for the target ROCm; ROCm 6.4: __activemask with "
                     "HIP_ENABLE_WARP_SYNC_BUILTINS defined"]  # fmt: skip


def test_a_macro_the_compatibility_header_s_names_need_in_one_release_is_noted() -> None:
    text = "__global__ void k(int* x, unsigned m) { x[0] = __shfl_xor_sync(m, x[1], 1); }\n"
    six, findings = _tx(text, SIX)
    assert six.startswith("#define HIP_ENABLE_WARP_SYNC_BUILTINS\n")
    assert [m for c, _, m in findings if c == "HPY022"] == [
        "__shfl_xor_sync for the target ROCm: HIP_ENABLE_WARP_SYNC_BUILTINS defined; ROCm 7.2: no macro defined"
    ]


def test_string_h_comes_with_the_runtime_include_only_where_rocm_7_dropped_it() -> None:
    text = '#include <cuda_runtime.h>\nvoid f(char* a) { memcpy(a, "x", 2); }\n'
    six, _ = _tx(text, SIX)
    seven, _ = _tx(text, SEVEN)
    assert "<cstring>" not in six
    assert seven.startswith("#include <hip/hip_runtime.h>\n#include <cstring>\n")
    assert "<cstring>" not in _tx("#include <string.h>\n" + text, SEVEN)[0].replace("<string.h>", "")
    assert "<cstring>" not in _tx(text.replace("memcpy(", "obj.memcpy("), SEVEN)[0]  # a member: not C's


def test_a_name_every_release_translates_alike_is_not_noted() -> None:
    _, findings = _tx("#include <cuda_runtime.h>\nvoid f(void** p) { cudaMalloc(p, 4); }\n", SEVEN)
    assert "HPY022" not in [c for c, _, _ in findings]


def test_the_report_lists_the_lines_and_the_minimum_release(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.cu").write_text(
        "#include <cuda_runtime.h>\n"
        "void f(float* p, cudaMemLocation l) {\n"
        "  cudaMemAdvise(p, 4, cudaMemAdviseSetReadMostly, l);\n"
        "}\n"
    )
    (src / "b.cu").write_text("#include <cuda_runtime.h>\nvoid g(void** p) { cudaMalloc(p, 4); }\n")
    for rocm, minimum in (("7.2", "7.2"), ("6.4", "5.2")):
        report = tmp_path / f"r{rocm}.json"
        argv = [str(src), "--out-dir", str(tmp_path / f"out{rocm}"), "--rocm", rocm, "--report", str(report), "-q"]
        assert main(argv) == 0
        data = json.loads(report.read_text())
        assert data["summary"]["minimum_rocm"] == minimum, rocm
        [line] = data["rocm_dependent"]
        assert (Path(line["path"]).name, line["line"], line["subject"]) == ("a.cu", 3, "cudaMemAdvise")
        assert "cudaMemAdvise(p, 4, cudaMemAdviseSetReadMostly, l);" in line["source"]
    assert main([str(src), "--out-dir", str(tmp_path / "md"), "--report", str(tmp_path / "r.md"), "-q"]) == 0
    markdown = (tmp_path / "r.md").read_text()
    assert "## Lines whose translation depends on the ROCm release" in markdown
    assert "ROCm 6.4: hipMemAdvise" in markdown


def test_the_corpus_program_of_7x_apis_is_reported_for_6_4() -> None:
    path = default_corpus_dir() / "rocm7_apis" / "rocm7_apis.cu"
    text = path.read_text()
    _, six = _tx(text, SIX, str(path))
    missing = {s for c, s, _ in six if c == "HPY106"}
    assert {"cublasSetWorkspace", "cudaLaunchKernelEx", "__int2bfloat16_rn"} <= missing
    # ROCm 6 lacks the warp reductions, which the compatibility header implements there
    assert "__reduce_add_sync" not in missing
    _, seven = _tx(text, SEVEN, str(path))
    assert not [s for c, s, _ in seven if c in ("HPY101", "HPY106")]
