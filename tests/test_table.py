"""The shipped mapping table: loads, has no duplicate keys, is broad enough, and dumps through `tables`."""

from __future__ import annotations

import csv
import io
import json
import pickle
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from hipify.cli.tables_cmd import explain_main, tables_main
from hipify.knowledge.table import ROW_KEYS, STATUSES, load_table, load_table_from, table_files
from hipify.options import DEFAULT_ROCM
from hipify.rewrite.index import WARP_SYNC_DEFINE, macro_needed
from hipify.rewrite.versions import version_of
from hipify.tablegen.__main__ import THRESHOLDS

MAPPED = ("supported", "deprecated", "experimental")


@pytest.fixture(scope="module")
def table():
    return load_table()


def test_every_file_loads_and_names_are_unique(table) -> None:
    files = table_files()
    assert {p.stem for p in files} >= {
        "runtime",
        "driver",
        "device",
        "blas",
        "sparse",
        "solver",
        "rand",
        "fft",
        "dnn",
        "headers",
        "complex",
        "cub",
        "rtc",
    }
    names = [r.cuda for path in files for r in load_table_from(path.parent).rows][: len(table)]
    assert len(set(names)) == len(names) == len(table)


def test_rows_are_sorted_and_valid(table) -> None:
    for path in table_files():
        rows = json.loads(path.read_text())["rows"]
        assert [r["cuda"] for r in rows] == sorted(r["cuda"] for r in rows), path.name
        assert all(r["api"] == path.stem for r in rows), path.name
    for row in table:
        assert row.hip_status in STATUSES and row.roc_status in STATUSES, row


@pytest.mark.parametrize("api", sorted(THRESHOLDS))
def test_breadth(table, api: str) -> None:
    rows = [r for r in table if r.api == api]
    need_rows, need_mapped = THRESHOLDS[api]
    mapped = [r for r in rows if r.hip_status in MAPPED or r.roc_status in MAPPED]
    assert len(rows) >= need_rows and len(mapped) >= need_mapped, (api, len(rows), len(mapped))


def test_runtime_and_driver_have_verified_hip_targets(table) -> None:
    counts = Counter(r.api for r in table if r.hip and r.hip_status in MAPPED)
    assert counts["runtime"] >= 800 and counts["driver"] >= 600


def test_supported_rows_have_targets(table) -> None:
    for row in table:
        if row.transform and row.transform.kind == "remove":
            # attribute macros translation drops: no target by design
            assert not row.hip and row.hip_status == "supported" and row.kind == "macro", row
        elif row.hip_status in MAPPED:
            # macros the compiler predefines (__HIPCC__) and standard C types live in no HIP header
            assert row.hip and (row.hip_header or row.source in ("compiler", "standard-type")), row
        if row.roc_status in MAPPED:
            assert row.roc and (row.roc_header or row.source == "standard-type"), row
        if row.hip_status == "unsupported":
            assert not row.hip, row


def test_header_rows(table) -> None:
    headers = [r for r in table if r.kind == "header"]
    assert len(headers) >= 50
    assert table.lookup("cuda_runtime.h").hip == "hip/hip_runtime.h"
    assert table.lookup("cublas_v2.h").hip == "hipblas/hipblas.h"
    assert table.lookup("cudnn.h").roc == "miopen/miopen.h"


@pytest.mark.parametrize(
    ("cuda", "hip"),
    [
        ("cudaMalloc", "hipMalloc"),
        ("cudaMemcpyHostToDevice", "hipMemcpyHostToDevice"),
        ("cudaStream_t", "hipStream_t"),
        ("cudaError_t", "hipError_t"),
        ("cudaSuccess", "hipSuccess"),
        ("cudaGetErrorString", "hipGetErrorString"),
        ("cudaDeviceProp", "hipDeviceProp_t"),
        ("__syncthreads", "__syncthreads"),
        ("cudaMemcpyToSymbol", "hipMemcpyToSymbol"),
        ("cublasSgemm", "hipblasSgemm"),
        ("cublasHandle_t", "hipblasHandle_t"),
        ("curandState", "hiprandState"),
        ("cub", "hipcub"),
        ("cuComplex", "hipComplex"),
        ("cuLaunchKernel", "hipModuleLaunchKernel"),
        ("CUdeviceptr", "hipDeviceptr_t"),
        ("__nv_bfloat16", "__hip_bfloat16"),
        ("nvrtcCompileProgram", "hiprtcCompileProgram"),
        ("cusparseCreate", "hipsparseCreate"),
        ("cufftPlan1d", "hipfftPlan1d"),
        ("__CUDA_RUNTIME_H__", ""),
    ],
)
def test_well_known_names(table, cuda: str, hip: str) -> None:
    row = table.lookup(cuda)
    assert row is not None
    if hip:
        assert row.hip == hip and row.hip_status == "supported", row
    else:
        assert row.hip and row.kind == "macro"


def test_symbol_transform_and_warp_sync(table) -> None:
    t = table.lookup("cudaMemcpyToSymbol").transform
    assert (t.kind, t.arg, t.wrapper) == ("wrap_arg", 0, "HIP_SYMBOL")
    assert table.lookup("cudaMemcpyFromSymbol").transform.arg == 1
    warp = table.lookup("__shfl_xor_sync")
    assert warp.hip_requires == "" and warp.at("6.4").hip_requires == "HIP_ENABLE_WARP_SYNC_BUILTINS"  # 7.x: default
    assert table.lookup("cudnnCreate").roc == "miopenCreate"


def test_tables_json(capsys, table) -> None:
    assert tables_main(["--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data) == len(table)
    assert set(data[0]) == set(ROW_KEYS)


def test_tables_csv_and_md_for_one_api(capsys) -> None:
    assert tables_main(["--format", "csv", "--api", "complex"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert rows and all(r["api"] == "complex" for r in rows)
    assert tables_main(["--format", "md", "--api", "rtc"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| cuda |") and "nvrtcCompileProgram" in out
    assert tables_main(["--api", "nope"]) == 2


def test_explain(capsys) -> None:
    assert explain_main(["cudaMemcpyToSymbol"]) == 0
    out = capsys.readouterr().out
    assert "hipMemcpyToSymbol" in out and "HIP_SYMBOL" in out and "hip/hip_runtime_api.h" in out
    assert explain_main(["cudaMemcpyToSymbl"]) == 1
    assert "cudaMemcpyToSymbol" in capsys.readouterr().err


def test_explain_names_the_flag_and_the_signature(capsys) -> None:
    assert explain_main(["cudnnCreate"]) == 0
    out = capsys.readouterr().out
    assert "with --miopen: miopenCreate" in out and "--roc" not in out  # cuDNN's flag is --miopen
    assert explain_main(["cublasGemmBatchedEx"]) == 0
    out = capsys.readouterr().out
    assert "signature:     differs from the CUDA declaration: parameter 8 (Aarray)" in out


# -- regressions found by compiling translated corpus programs with ROCm 6.4's hipcc (hipify-py validate) --------


def _mapped(table, cuda: str, hip: str, status: str = "supported"):
    row = table.lookup(cuda)
    assert row is not None, cuda
    assert (row.hip, row.hip_status) == (hip, status), row
    return row


def test_cufft_direction_spelling(table) -> None:
    _mapped(table, "CUFFT_FORWARD", "HIPFFT_FORWARD")
    _mapped(table, "CUFFT_INVERSE", "HIPFFT_BACKWARD")


@pytest.mark.parametrize(
    ("cuda", "hip"),
    [
        ("curand_poisson", "hiprand_poisson"),
        ("curand_poisson4", "hiprand_poisson4"),
        ("curand_log_normal", "hiprand_log_normal"),
        ("curand_log_normal2_double", "hiprand_log_normal2_double"),
        ("curand_discrete", "hiprand_discrete"),
        ("curand_discrete4", "hiprand_discrete4"),
        ("curand_init", "hiprand_init"),
        ("skipahead", "skipahead"),
        ("skipahead_sequence", "skipahead_sequence"),
        ("curand_normal2_double", "hiprand_normal2_double"),
        ("curand_uniform4", "hiprand_uniform4"),
    ],
)
def test_curand_device_functions(table, cuda: str, hip: str) -> None:
    # curand_poisson.h's `#if .. inline __constant__ T t[] = { #else static .. = { #endif` once hid the rest
    _mapped(table, cuda, hip)


def test_deprecated_means_hip_marks_it(table) -> None:
    # HIP 6.4 declares hipDevicePrimaryCtxRetain under HIP_DEPRECATED(HIP_DEPRECATED_MSG): translated with a warning
    _mapped(table, "cuDevicePrimaryCtxRetain", "hipDevicePrimaryCtxRetain", "deprecated")
    _mapped(table, "cudaProfilerStart", "hipProfilerStart", "deprecated")
    _mapped(table, "cudaMalloc", "hipMalloc")


@pytest.mark.parametrize(
    ("cuda", "hip"),
    [
        ("cudaMallocHost", "hipHostMalloc"),
        ("cudaFreeHost", "hipHostFree"),
        ("cudaHostAlloc", "hipHostMalloc"),
        ("cudaHostRegister", "hipHostRegister"),
        ("cuMemAllocHost", "hipHostMalloc"),
        ("cuMemAllocHost_v2", "hipHostMalloc"),
        ("cuMemFreeHost", "hipHostFree"),
        ("cuMemHostAlloc", "hipHostMalloc"),
    ],
)
def test_pinned_memory_prefers_undeprecated_names(table, cuda: str, hip: str) -> None:
    _mapped(table, cuda, hip)


@pytest.mark.parametrize(
    ("cuda", "hip"),
    [
        ("make_cudaExtent", "make_hipExtent"),
        ("make_cudaPitchedPtr", "make_hipPitchedPtr"),
        ("make_cudaPos", "make_hipPos"),
    ],
)
def test_driver_functions_helpers(table, cuda: str, hip: str) -> None:
    assert _mapped(table, cuda, hip).hip_since == "5.2"


@pytest.mark.parametrize(
    ("cuda", "hip"),
    [
        ("cudaPointerAttributes", "hipPointerAttribute_t"),
        ("cudaPointerGetAttributes", "hipPointerGetAttributes"),
        ("cudaMemoryTypeManaged", "hipMemoryTypeManaged"),
        ("CUtexObject", "hipTextureObject_t"),
        ("CUsharedconfig", "hipSharedMemConfig"),
        ("CUuuid", "hipUUID"),
    ],
)
def test_types_paired_through_wrapper_signatures(table, cuda: str, hip: str) -> None:
    _mapped(table, cuda, hip)
    assert table.lookup("CUaddress_mode").hip == "HIPaddress_mode"  # its constants' enum, not the runtime one


@pytest.mark.parametrize(
    "cuda",
    [
        "curandState_t",
        "curandStateXORWOW_t",
        "curandStatePhilox4_32_10_t",
        "curandStateMRG32k3a_t",
        "curandStateSobol32_t",
        "curandStateMtgp32_t",
    ],
)
def test_hiprand_state_types_exist_since_52(table, cuda: str) -> None:
    row = table.lookup(cuda)
    assert row.hip == cuda.replace("curand", "hiprand") and row.hip_status == "supported" and row.hip_since == "5.2", (
        row
    )


@pytest.mark.parametrize(
    "cuda",
    [
        "CUDART_CB",
        "CUDARTAPI",
        "CUDARTAPI_CDECL",
        "CUDAAPI",
        "CUDA_CB",
        "CUBLASAPI",
        "CUFFTAPI",
        "CURANDAPI",
        "CUSPARSEAPI",
        "CUSOLVERAPI",
    ],
)
def test_attribute_macros_are_dropped(table, cuda: str) -> None:
    row = table.lookup(cuda)
    assert row is not None and row.kind == "macro", cuda
    assert (row.hip, row.hip_status, row.transform.kind) == ("", "supported", "remove"), row


def test_cudart_device_is_not_dropped(table) -> None:
    row = table.lookup("CUDART_DEVICE")  # expands to __device__ in device code: not a pure calling convention
    assert row is None or not (row.transform and row.transform.kind == "remove")


@pytest.mark.parametrize(
    ("cuda", "ocml"),
    [
        ("__fadd_rz", "__ocml_add_rtz_f32"),
        ("__fadd_rd", "__ocml_add_rtn_f32"),
        ("__fadd_ru", "__ocml_add_rtp_f32"),
        ("__fsub_rz", "__ocml_sub_rtz_f32"),
        ("__fmul_ru", "__ocml_mul_rtp_f32"),
        ("__fmul_rd", "__ocml_mul_rtn_f32"),
        ("__fmaf_rz", "__ocml_fma_rtz_f32"),
        ("__fmaf_ru", "__ocml_fma_rtp_f32"),
        ("__dadd_rz", "__ocml_add_rtz_f64"),
        ("__dadd_ru", "__ocml_add_rtp_f64"),
        ("__dsub_rd", "__ocml_sub_rtn_f64"),
        ("__dmul_rz", "__ocml_mul_rtz_f64"),
        ("__fma_rz", "__ocml_fma_rtz_f64"),
        ("__fma_rd", "__ocml_fma_rtn_f64"),
    ],
)
def test_rounded_intrinsics_map_to_always_declared_ocml(table, cuda: str, ocml: str) -> None:
    # clang's __clang_hip_math.h declares __fadd_rz & co. only under OCML_BASIC_ROUNDED_OPERATIONS, and hipcc
    # pre-includes it before the file's first line: a #define in the file is too late. Their definitions only
    # forward to __ocml_*, which __clang_hip_libdevice_declares.h declares unconditionally.
    row = _mapped(table, cuda, ocml)
    assert row.hip_requires == "" and row.hip_header == "__clang_hip_libdevice_declares.h", row
    assert row.source == "preincluded-guard" and "OCML_BASIC_ROUNDED_OPERATIONS" in row.note, row


@pytest.mark.parametrize("cuda", ["__frcp_rd", "__frcp_ru", "__frcp_rz", "__drcp_rd", "__drcp_ru", "__drcp_rz"])
def test_rounded_reciprocals_are_unsupported(table, cuda: str) -> None:
    # __frcp_rz(x) is __ocml_div_rtz_f32(1.0f, x): not a pass-through, and the guarded name cannot compile
    row = table.lookup(cuda)
    assert (row.hip, row.hip_status, row.hip_requires) == ("", "unsupported", ""), row
    assert row.source == "preincluded-guard" and "OCML_BASIC_ROUNDED_OPERATIONS" in row.note, row


@pytest.mark.parametrize(
    "cuda", [f"__{op}_{mode}" for op in ("fdiv", "ddiv", "fsqrt", "dsqrt") for mode in ("rd", "ru", "rz")]
)
def test_rounded_division_and_sqrt_are_unsupported(table, cuda: str) -> None:
    # they forward to __ocml_div_rt*/__ocml_sqrt_rt*, declared but not defined by ROCm 6.4's ocml.bc (link error)
    row = table.lookup(cuda)
    assert (row.hip, row.hip_status, row.hip_requires, row.source) == ("", "unsupported", "", "override"), row
    assert "ocml.bc" in row.note, row


def test_no_row_requires_a_macro_of_the_preincluded_headers(table) -> None:
    # the warp-sync builtins' guard (6.x), and the definitions that make a library function take the translated types
    requiring = {r.hip_requires for r in table.at_rocm((6, 4)) if r.hip_requires and r.hip_signature != "define"}
    assert requiring == {"HIP_ENABLE_WARP_SYNC_BUILTINS"}, requiring
    assert not {r.hip_requires for r in table if r.hip_requires and r.hip_signature != "define"}  # 7.x: none
    for release in table.target_releases:
        rows = table.at_rocm(version_of(release))
        assert not [r.cuda for r in rows if r.hip_requires and r.hip_header.startswith("__clang_hip_")]
    guarded = [r for r in table if r.source == "preincluded-guard"]
    assert len(guarded) == 30 and sum(1 for r in guarded if r.hip_status == "unsupported") == 6
    assert all(r.hip.startswith("__ocml_") for r in guarded if r.hip)


@pytest.mark.parametrize("cuda", ["__fadd_rn", "__fmul_rn", "__fdiv_rn", "__fsqrt_rn", "__dadd_rn"])
def test_round_to_nearest_intrinsics_need_no_macro(table, cuda: str) -> None:
    # clang's __clang_hip_math.h declares the _rn forms in the #else branch too
    assert _mapped(table, cuda, cuda).hip_requires == ""


def test_activemask_requires_warp_sync_macro(table) -> None:
    assert table.at_rocm((6, 4)).lookup("__activemask").hip_requires == "HIP_ENABLE_WARP_SYNC_BUILTINS"
    assert table.lookup("__activemask").hip_requires == ""  # ROCm 7 declares the warp-sync builtins by default


def test_the_releases_needing_the_warp_sync_macro_are_the_table_s(table) -> None:
    # index.VERSIONS_NEEDING says which releases need the define (the compatibility header's entries read it);
    # the rows of each release the table was generated for say it from that release's headers
    assert table.target_releases == ("6.4", "7.2")
    for release in table.target_releases:
        required = any(WARP_SYNC_DEFINE in r.hip_requires for r in table.at_rocm(version_of(release)))
        assert required == macro_needed(WARP_SYNC_DEFINE, version_of(release)), release


def test_the_default_target_is_the_newest_release_the_table_knows(table) -> None:
    assert version_of(table.target_releases[-1]) == DEFAULT_ROCM


@pytest.mark.parametrize(
    ("cuda", "arg"),
    [
        ("cudaFuncSetAttribute", 0),
        ("cudaFuncGetAttributes", 1),
        ("cudaFuncSetCacheConfig", 0),
        ("cudaFuncSetSharedMemConfig", 0),
        ("cudaLaunchKernel", 0),
    ],
)
def test_kernel_argument_cast_where_hip_has_no_template(table, cuda: str, arg: int) -> None:
    t = table.lookup(cuda).transform
    assert (t.kind, t.arg, t.wrapper) == ("wrap_arg", arg, "reinterpret_cast<const void*>")


@pytest.mark.parametrize(
    "cuda",
    [
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
        "cudaOccupancyMaxPotentialBlockSize",
        "cudaLaunchCooperativeKernel",
        "cudaStreamAttachMemAsync",
        "cudaMalloc",
    ],
)
def test_no_kernel_cast_where_hip_has_a_template_or_takes_void_ptr(table, cuda: str) -> None:
    assert table.lookup(cuda).transform is None


def test_no_row_is_a_cpp_keyword() -> None:
    # Functional casts such as int(x) in CUDA's inline headers once produced rows named 'int'.
    keywords = {
        "bool",
        "char",
        "short",
        "int",
        "long",
        "float",
        "double",
        "void",
        "signed",
        "unsigned",
        "return",
        "sizeof",
        "operator",
    }
    assert sorted(r.cuda for r in load_table() if r.cuda in keywords) == []


def test_rows_cached_pickled_are_the_rows_of_the_json(tmp_path: Path) -> None:
    from importlib import resources

    from hipify.knowledge.table import load_table_from

    directory = Path(str(resources.files("mapping_tables")))
    built = load_table_from(directory, tmp_path)  # builds from JSON and keeps the rows
    (kept,) = tmp_path.glob("table-*.rows.pickle")
    again = load_table_from(directory, tmp_path)  # from the pickle
    assert again.rows == built.rows and again.digest == built.digest
    kept.write_bytes(b"not a pickle")  # a damaged cache is ignored, never trusted
    assert load_table_from(directory, tmp_path).rows == built.rows
    kept.write_bytes(pickle.dumps(built.rows))  # rows kept by an earlier version (Row objects): built again
    assert load_table_from(directory, tmp_path).rows == built.rows
    kept.write_bytes(pickle.dumps((ROW_KEYS[:-1], [("cudaMalloc",)])))  # other fields: built again
    assert load_table_from(directory, tmp_path).rows == built.rows


def test_the_planner_index_is_kept_on_disk_and_equals_a_fresh_build(tmp_path: Path, monkeypatch) -> None:
    """A run's start loads the index the planner derives from the table instead of building it; what it loads
    is what a build gives, and a table with other rows gets an index of its own."""
    from hipify.knowledge.table import MappingTable, _derived_table
    from hipify.rewrite import index

    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "results"))
    table = load_table()
    built = index._build(table)

    def same(found: index.TableIndex) -> bool:
        return replace(found, wanted=built.wanted) == built and found.wanted.names == built.wanted.names

    index.index_of.cache_clear()
    assert same(index.index_of(table))  # built, and kept
    kept = sorted(tmp_path.glob("index-*.pickle"))
    assert len(kept) == 1
    index.index_of.cache_clear()
    monkeypatch.setattr(index, "_build", lambda t: pytest.fail("built again, though kept"))
    assert same(index.index_of(table))
    monkeypatch.undo()
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "results"))
    other = _derived_table(table, (("cudaMalloc", "myMalloc"),), ())
    assert other.digest not in (table.digest, "")
    fresh = index._build(other)
    found = index.index_of(other)
    assert replace(found, wanted=fresh.wanted) == fresh and found.wanted.names == fresh.wanted.names
    assert len(list(tmp_path.glob("index-*.pickle"))) == 2
    # Another version of the translator's code never reads an index an earlier one kept.
    index.index_of.cache_clear()
    monkeypatch.setattr(index, "tool_identity", lambda: "hipify-py 0.0+other")
    assert same(index.index_of(table))
    assert len(list(tmp_path.glob("index-*.pickle"))) == 3
    monkeypatch.undo()
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "results"))
    kept[0].write_bytes(b"not a pickle")  # a broken file is built again
    index.index_of.cache_clear()
    assert same(index.index_of(table))
    assert MappingTable.from_rows(table.rows[:10]).digest not in (table.digest, "")
