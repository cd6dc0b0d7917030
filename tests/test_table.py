"""The shipped mapping table: loads, has no duplicate keys, is broad enough, and dumps through `tables`."""
from __future__ import annotations

import csv
import io
import json
from collections import Counter

import pytest

from hipify.table import ROW_KEYS, STATUSES, load_table, load_table_from, table_files
from hipify.tablegen.__main__ import THRESHOLDS
from hipify.tables_cmd import explain_main, tables_main

MAPPED = ("supported", "deprecated", "experimental")


@pytest.fixture(scope="module")
def table():
    return load_table()


def test_every_file_loads_and_names_are_unique(table) -> None:
    files = table_files()
    assert {p.stem for p in files} >= {"runtime", "driver", "device", "blas", "sparse", "solver", "rand", "fft",
                                       "dnn", "headers", "complex", "cub", "rtc"}
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
            assert row.hip and row.hip_header, row
        if row.roc_status in MAPPED:
            assert row.roc and row.roc_header, row
        if row.hip_status == "unsupported":
            assert not row.hip, row


def test_header_rows(table) -> None:
    headers = [r for r in table if r.kind == "header"]
    assert len(headers) >= 50
    assert table.lookup("cuda_runtime.h").hip == "hip/hip_runtime.h"
    assert table.lookup("cublas_v2.h").hip == "hipblas/hipblas.h"
    assert table.lookup("cudnn.h").roc == "miopen/miopen.h"


@pytest.mark.parametrize(("cuda", "hip"), [
    ("cudaMalloc", "hipMalloc"), ("cudaMemcpyHostToDevice", "hipMemcpyHostToDevice"), ("cudaStream_t", "hipStream_t"),
    ("cudaError_t", "hipError_t"), ("cudaSuccess", "hipSuccess"), ("cudaGetErrorString", "hipGetErrorString"),
    ("cudaDeviceProp", "hipDeviceProp_t"), ("__syncthreads", "__syncthreads"),
    ("cudaMemcpyToSymbol", "hipMemcpyToSymbol"), ("cublasSgemm", "hipblasSgemm"),
    ("cublasHandle_t", "hipblasHandle_t"), ("curandState", "hiprandState"), ("cub", "hipcub"),
    ("cuComplex", "hipComplex"), ("cuLaunchKernel", "hipModuleLaunchKernel"), ("CUdeviceptr", "hipDeviceptr_t"),
    ("__nv_bfloat16", "__hip_bfloat16"), ("nvrtcCompileProgram", "hiprtcCompileProgram"),
    ("cusparseCreate", "hipsparseCreate"), ("cufftPlan1d", "hipfftPlan1d"), ("__CUDA_RUNTIME_H__", ""),
])
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
    assert table.lookup("__shfl_xor_sync").hip_requires == "HIP_ENABLE_WARP_SYNC_BUILTINS"
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
