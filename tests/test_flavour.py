"""--roc / --miopen name a family's types, enumerators and functions from one library, or say why not; uses of
functions whose target does not take the translated call are reported (shipped table, regex engine)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from hipify import Options, translate, translate_files
from hipify.knowledge.table import MappingTable, Row
from hipify.model import ProjectFacts
from hipify.rewrite.index import index_of
from hipify.rewrite.status import decide

ROC = Options(engine="regex", roc=True, use_cache=False)
MIOPEN = Options(engine="regex", miopen=True, use_cache=False)
PLAIN = Options(engine="regex", use_cache=False)

COMPLETE = """\
#include <cublas_v2.h>
cublasStatus_t f(cublasHandle_t h, float* x) {
  cublasSetStream(h, 0);
  return cublasSscal(h, 4, x, x, 1) == CUBLAS_STATUS_SUCCESS ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}
"""
CREATES = """\
#include <cublas_v2.h>
void g(cublasHandle_t* h) {
  cublasCreate(h);
  cublasCreate(h);
}
"""


def _codes(result, code: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [d.message for d in result.diagnostics if d.code == code]


def test_a_complete_family_takes_the_roc_names(table: MappingTable) -> None:
    result = translate(COMPLETE, path="a.cu", options=ROC, table=table)
    assert "rocblas/rocblas.h" in result.text and "rocblas_sscal(" in result.text
    assert "rocblas_status_success" in result.text and "hipblas" not in result.text.lower()
    assert not _codes(result, "HPY114")


def test_a_family_with_a_name_roc_lacks_keeps_its_hip_names_once(table: MappingTable) -> None:
    result = translate(CREATES, path="b.cu", options=ROC, table=table)
    assert "hipblas/hipblas.h" in result.text and "hipblasHandle_t" in result.text
    assert "rocblas" not in result.text
    [message] = _codes(result, "HPY114")
    assert "cublasCreate" in message and "this file" in message


def test_another_files_gap_keeps_the_hip_names_in_every_file(table: MappingTable) -> None:
    project = ProjectFacts(hip_families=(("blas", "cublasCreate has no rocblas equivalent"),))
    result = translate(COMPLETE, path="c.cu", options=ROC, table=table, project=project)
    assert "hipblasSscal(" in result.text and "rocblas" not in result.text
    [message] = _codes(result, "HPY114")
    assert "another file" in message


def test_the_project_scan_carries_a_gap_to_the_headers(tmp_path: Path) -> None:
    header = "#pragma once\n#include <cublas_v2.h>\nvoid scale(cublasHandle_t h, float* x);\n"
    main = '#include "scale.h"\nvoid run(float* x) { cublasHandle_t h; cublasCreate(&h); scale(h, x); }\n'
    (tmp_path / "scale.h").write_text(header)
    (tmp_path / "main.cu").write_text(main)
    results = translate_files({str(tmp_path / "scale.h"): header, str(tmp_path / "main.cu"): main}, ROC)
    assert "hipblasHandle_t" in results[str(tmp_path / "scale.h")].text
    assert "hipblasCreate" in results[str(tmp_path / "main.cu")].text
    alone = translate(header, path="scale.h", options=ROC)
    assert "rocblas_handle" in alone.text  # by itself, the header could take rocBLAS's names


def test_roc_requires_is_defined_for_a_roc_target(table: MappingTable) -> None:
    text = "#include <cublas_v2.h>\n#include <cuComplex.h>\nvoid f(cublasHandle_t h, cuComplex* a) {\n"
    text += "  cublasCscal(h, 1, a, a, 1);\n}\n"
    result = translate(text, path="d.cu", options=ROC, table=table)
    assert result.text.startswith("#define ROCM_MATHLIBS_API_USE_HIP_COMPLEX\n"), result.text
    assert "rocblas_cscal(" in result.text
    plain = translate(text, path="d.cu", options=PLAIN, table=table)
    assert "ROCM_MATHLIBS_API_USE_HIP_COMPLEX" not in plain.text


def test_miopen_without_an_equivalent_needs_hand_work_once(table: MappingTable) -> None:
    text = (
        "#include <cudnn.h>\nvoid f(cudnnTensorDescriptor_t d) {\n  cudnnCreateTensorDescriptor(&d);\n"
        "  cudnnSetTensor4dDescriptor(d, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, 1, 1);\n"
        "  cudnnSetTensor4dDescriptor(d, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, 1, 1);\n}\n"
    )
    result = translate(text, path="e.cu", options=MIOPEN, table=table)
    assert "miopenCreateTensorDescriptor(&d)" in result.text
    [message] = _codes(result, "HPY115")
    assert "cudnnSetTensor4dDescriptor" in message
    assert len(_codes(result, "HPY101")) == 6  # and each use is reported where it is


def _first(table: MappingTable, wanted) -> Row:  # type: ignore[no-untyped-def]
    releases = index_of(table).releases
    for row in table:
        if row.kind == "function" and row.transform is None and wanted(row) and decide(row, PLAIN, releases).target:
            return row
    pytest.skip("no such row in the table")


def test_a_use_of_a_differing_target_is_reported_with_the_difference(table: MappingTable) -> None:
    row = _first(table, lambda r: r.hip_signature == "differs" and r.hip_signature_diff)
    result = translate(f"void f() {{ (void){row.cuda}; }}\n", path="f.cpp", options=PLAIN, table=table)
    [message] = _codes(result, "HPY112")
    assert row.hip in message and row.hip_signature_diff in message


def test_cuda13_changes_are_marked_for_review(table: MappingTable) -> None:
    text = "#include <cuda_runtime.h>\nvoid f(float* p, cudaStream_t s) { cudaMemPrefetchAsync(p, 4, 0, s); }\n"
    six = replace(PLAIN, rocm_version=(6, 4))
    result = translate(text, path="g.cu", options=six, table=table.at_rocm(six.rocm_version))
    assert "hipMemPrefetchAsync(p, 4, 0, s)" in result.text
    [message] = _codes(result, "HPY113")
    assert "CUDA 13" in message


def test_rocm7_takes_each_cuda_form_of_the_memory_location_apis(table: MappingTable) -> None:
    seven = replace(PLAIN, rocm_version=(7, 2))
    older = "void f(float* p, cudaStream_t s) { cudaMemPrefetchAsync(p, 4, 0, s); }\n"  # CUDA 12: a device
    newer = "void f(float* p, cudaMemLocation l, cudaStream_t s) { cudaMemPrefetchAsync(p, 4, l, 0, s); }\n"
    for text, call in ((older, "hipMemPrefetchAsync(p, 4, 0, s)"), (newer, "hipMemPrefetchAsync_v2(p, 4, l, 0, s)")):
        result = translate(text, path="g.cu", options=seven, table=table.at_rocm(seven.rocm_version))
        assert call in result.text and not _codes(result, "HPY113"), result.text
    advise = "void f(float* p, cudaMemLocation l) { cudaMemAdvise(p, 4, cudaMemAdviseSetReadMostly, l); }\n"
    result = translate(advise, path="g.cu", options=seven, table=table.at_rocm(seven.rocm_version))
    assert "hipMemAdvise_v2(p, 4, hipMemAdviseSetReadMostly, l)" in result.text
    [message] = _codes(result, "HPY113")  # the same count of arguments: marked, naming the older form's function
    assert "hipMemAdvise takes CUDA 12.9's" in message


def test_a_cub_member_hipcub_lacks_keeps_its_namespace(table: MappingTable) -> None:
    releases = index_of(table).releases
    lacking = next(r for r in table if r.cuda.startswith("cub::") and not decide(r, PLAIN, releases).target)
    member = lacking.cuda.split("::", 1)[1]
    text = f"#include <cub/cub.cuh>\nvoid f() {{ using T = cub::{member}; cub::DeviceReduce* r = nullptr; }}\n"
    result = translate(text, path="i.cu", options=PLAIN, table=table)
    assert f"cub::{member}" in result.text and "hipcub::DeviceReduce" in result.text
    assert [d.code for d in result.diagnostics if d.subject == lacking.cuda] == ["HPY101"]
