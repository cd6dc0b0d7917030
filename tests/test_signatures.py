"""Signature verification of the table's function rows: the rules (unit) and what the shipped table records."""

from __future__ import annotations

import pytest

from hipify.knowledge.table import Row, load_table
from hipify.tablegen.signature.compatible import accepts
from hipify.tablegen.signature.mapping import map_spelling


@pytest.mark.parametrize(
    ("takes", "passes", "ok"),
    [
        ("const void *", "void *", True),  # const added to the pointee
        ("void *", "const void *", False),  # const dropped
        ("const char *const *", "char **", True),
        ("const char **", "char **", False),  # [conv.qual]: T** does not convert to const T**
        ("long", "long long", True),  # same width and signedness, by value
        ("int", "long", False),  # narrower: the value may change
        ("int", "unsigned int", True),  # same width, other signedness (flags, counts)
        ("unsigned long", "int", True),  # wider
        ("double", "float", True),
        ("float", "double", False),
        ("unsigned int", "unsigned long long", False),
        ("long *", "long long *", False),  # pointers to different types
        ("HIP_vector_type<float, 2> *", "HIP_vector_type<float, 2> *", True),
    ],
)
def test_parameter_acceptance(takes: str, passes: str, ok: bool) -> None:
    assert accepts(takes, passes) is ok


def test_type_spellings_map_through_type_rows() -> None:
    rows = {
        "cuComplex": Row("cuComplex", hip="hipComplex", kind="type", api="complex", hip_status="supported"),
        "cudnnHandle_t": Row("cudnnHandle_t", roc="miopenHandle_t", kind="type", api="dnn", roc_status="supported"),
        "cudaFoo": Row("cudaFoo", kind="type", api="runtime"),
        "cudaMalloc": Row("cudaMalloc", hip="hipMalloc", kind="function", hip_status="supported"),
    }
    assert map_spelling("const cuComplex *const *", rows.get, roc=False).spelling == "const hipComplex *const *"
    assert map_spelling("struct timespec", rows.get, roc=False).spelling == "timespec"  # not CUDA: kept
    assert map_spelling("struct cudaMemLocation", rows.get, roc=False).unmapped == ("cudaMemLocation",)
    assert map_spelling("cudnnHandle_t", rows.get, roc=True).spelling == "miopenHandle_t"
    assert map_spelling("cudnnHandle_t", rows.get, roc=False).unmapped == ("cudnnHandle_t",)
    assert map_spelling("cudaFoo *", rows.get, roc=False).unmapped == ("cudaFoo",)
    assert map_spelling("cudaMalloc", rows.get, roc=False).spelling == "cudaMalloc"  # only type rows map


@pytest.fixture(scope="module")
def table():
    return load_table()


STATUSES = {"same", "sibling", "define", "older", "newer", "differs", "unchecked"}


def test_every_function_row_with_a_target_has_a_verdict(table) -> None:
    usable = {"supported", "deprecated", "experimental"}
    for row in table:
        if row.kind != "function" or row.api == "cub":
            assert not row.hip_signature and not row.roc_signature, row
            continue
        if row.hip and row.hip_status in usable and row.api != "dnn":
            assert row.hip_signature in STATUSES, row
        if row.hip_signature in ("differs", "older", "newer"):
            assert row.hip_signature_diff, row
        if row.roc_signature == "differs":
            assert row.roc_signature_diff, row
        if row.hip_signature == "define":
            assert row.hip_requires, row
        if row.roc_signature == "define":
            assert row.roc_requires, row


def test_complex_batched_gemm_targets_the_sibling_taking_hip_complex(table) -> None:
    row = table.lookup("cublasCgemmBatched").at("6.4")
    assert (row.hip, row.hip_signature) == ("hipblasCgemmBatched_v2", "sibling"), row
    assert "hipblasCgemmBatched takes other types" in row.note
    # ROCm 7 dropped hipBLAS's v1 API: the plain name takes hipComplex
    seven = table.lookup("cublasCgemmBatched")
    assert (seven.hip, seven.hip_signature) == ("hipblasCgemmBatched", "same"), seven


def test_a_sibling_differing_at_fewer_parameters_is_the_target(table) -> None:
    """ROCm 6.4's hipblasGemmBatchedEx takes hipblasDatatype_t where the translated call passes hipDataType;
    hipblasGemmBatchedEx_v2 takes hipDataType and differs only in the pointer arrays' constness (a call passing
    ``const void **``, as most do, compiles against it): it is the target, still reported as differing."""
    row = table.lookup("cublasGemmBatchedEx").at("6.4")
    assert (row.hip, row.hip_signature) == ("hipblasGemmBatchedEx_v2", "differs"), row
    assert "Atype" not in row.hip_signature_diff and "Aarray" in row.hip_signature_diff, row
    seven = table.lookup("cublasGemmBatchedEx")
    assert seven.hip == "hipblasGemmBatchedEx", seven


def test_gemm_ex_takes_hip_data_type(table) -> None:
    row = table.lookup("cublasGemmEx").at("6.4")
    assert row.hip in ("hipblasGemmEx_v2", "hipblasGemmEx") and row.hip_signature in ("sibling", "define"), row
    assert row.hip_signature == "sibling" or row.hip_requires == "HIPBLAS_V2", row
    seven = table.lookup("cublasGemmEx")
    assert (seven.hip, seven.hip_signature) == ("hipblasGemmEx", "same"), seven


def test_half_gemm_needs_hip_half(table) -> None:
    row = table.lookup("cublasHgemm")
    assert (row.hip, row.hip_signature, row.hip_requires) == ("hipblasHgemm", "define", "HIPBLAS_USE_HIP_HALF"), row


def test_changed_signatures_say_how(table) -> None:
    row = table.lookup("cudaMemPrefetchAsync").at("6.4")  # CUDA 13 takes a cudaMemLocation and flags, 12.9 a device
    assert row.hip_signature == "older", row
    assert row.hip_signature_diff.startswith("takes CUDA 12.9's declaration; CUDA 13.0's: "), row


def test_rocm7_takes_both_forms_of_the_memory_location_apis(table) -> None:
    # hipMemPrefetchAsync_v2 takes CUDA 13's five arguments, hipMemPrefetchAsync CUDA 12.9's four
    prefetch = table.lookup("cudaMemPrefetchAsync")
    assert (prefetch.hip, prefetch.hip_signature) == ("hipMemPrefetchAsync_v2", "sibling"), prefetch
    assert prefetch.transform is not None and dict(prefetch.transform.arity) == {4: "hipMemPrefetchAsync"}
    # the same count of parameters: the call is marked for review, naming the older form's function
    advise = table.lookup("cudaMemAdvise")
    assert (advise.hip, advise.hip_signature) == ("hipMemAdvise_v2", "newer"), advise
    assert advise.hip_signature_diff == "takes CUDA 13.0's declaration; hipMemAdvise takes CUDA 12.9's", advise


def test_summary_share_of_verified_function_rows(table) -> None:
    from hipify.tablegen.signature.summary import counts

    total = sum((c for c in counts(table, roc=False).values()), start=__import__("collections").Counter())
    matched = total["same"] + total["sibling"] + total["define"]
    assert matched / sum(total.values()) > 0.92, total


def test_names_only_older_cuda_declares_are_checked_against_its_declaration(table) -> None:
    row = table.lookup("cusparseScsr2csc_bufferSizeExt") or table.lookup("cudaThreadSynchronize")
    assert row.hip_signature in ("same", "sibling", "define"), row


@pytest.mark.parametrize(
    ("cuda", "hip"),
    [
        ("CUarray", "hipArray_t"),  # not the removed hiparray
        ("CUarray_st", "hipArray"),  # tags pair with tags
        ("CUDA_ARRAY3D_DESCRIPTOR_st", "HIP_ARRAY3D_DESCRIPTOR"),
        ("CUgraphNode", "hipGraphNode_t"),  # typedef names with typedef names, not the tag hipGraphNode
        ("syevjInfo_t", "hipsolverSyevjInfo_t"),
    ],
)
def test_type_pairs_the_checks_needed(table, cuda: str, hip: str) -> None:
    row = table.lookup(cuda)
    assert (row.hip, row.hip_status) == (hip, "supported"), row


def test_miopen_types_come_from_its_declaring_macro(table) -> None:
    row = table.lookup("cudnnHandle_t")  # MIOPEN_DECLARE_OBJECT(miopenHandle) declares miopenHandle_t
    assert (row.roc, row.roc_status) == ("miopenHandle_t", "supported"), row


def test_predefined_identifiers_are_not_rows(table) -> None:
    assert table.lookup("__func__") is None  # crt's `__func__(double rsqrt(double a));` is a macro invocation


@pytest.mark.parametrize(
    ("cuda", "roc"),
    [
        ("cublasFillMode_t", "rocblas_fill"),  # from rocblas_ssymv(..., rocblas_fill uplo, ...) & co.
        ("CUBLAS_FILL_MODE_LOWER", "rocblas_fill_lower"),  # the value of HIPBLAS_FILL_MODE_LOWER
        ("CUBLAS_OP_N", "rocblas_operation_none"),
        ("cusparseIndexType_t", "rocsparse_indextype"),
    ],
)
def test_roc_types_paired_through_function_signatures(table, cuda: str, roc: str) -> None:
    row = table.lookup(cuda)
    assert (row.roc, row.roc_status) == (roc, "supported"), row


def test_driver_types_paired_through_function_signatures(table) -> None:
    row = table.lookup("CUmemoryPool")  # cuMemPoolDestroy(CUmemoryPool) ~ hipMemPoolDestroy(hipMemPool_t)
    assert (row.hip, row.hip_status) == ("hipMemPool_t", "supported"), row
