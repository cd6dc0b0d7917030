"""Arguments CUDA's C++ overloads convert from an older enum (cublasGemmEx's compute type given as a data type):
the switch that converts them, the transform derived from the two declarations, and the translation."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify.knowledge.table import Transform
from hipify.options import Options
from hipify.tablegen.headers import build_index
from hipify.tablegen.scan import scan_text
from hipify.tablegen.transforms import derive_transform
from hipify.translation.api import translate
from hipify.translation.engines import clang_status

CUDA = """
typedef enum { D_R_32F = 0, D_R_16F = 2, D_R_32I = 10 } dtype;
typedef enum { C_16F = 64, C_32F = 68, C_32F_PEDANTIC = 69, C_32I = 72 } ctype;
int gemm(int h, const void* a, dtype at, void* c, dtype ct, ctype compute);
#if defined(__cplusplus)
static inline int migrate(int h, dtype t, ctype* out) {
  switch (t) {
    case D_R_32F:
      *out = pedantic ? C_32F_PEDANTIC : C_32F;
      return 0;
    case D_R_16F: *out = C_16F; return 0;
    case D_R_32I: *out = C_32I; return 0;
    default: return 1;
  }
}
static inline int gemm(int h, const void* a, dtype at, void* c, dtype ct, dtype compute) {
  ctype m = C_32F;
  migrate(h, compute, &m);
  return gemm(h, a, at, c, ct, m);
}
#endif
"""
HIP_APART = "int hgemm(int h, const void* a, hdtype at, void* c, hdtype ct, hctype compute);\n"
HIP_LEGACY = "int hgemm(int h, const void* a, hdtype at, void* c, hdtype ct, hdtype compute);\n"


def _index(tmp_path: Path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text)
    return build_index([(name, path)])


def test_migration_switch_pairs_take_the_default_branch() -> None:
    pairs = scan_text(CUDA).migration_pairs
    assert pairs == (("D_R_32F", "C_32F"), ("D_R_16F", "C_16F"), ("D_R_32I", "C_32I"))


def test_transform_where_hip_keeps_the_compute_type_apart(tmp_path: Path) -> None:
    cuda = _index(tmp_path, "c.h", CUDA)
    expected = Transform(
        kind="migrate_arg", arg=5, values=(("D_R_16F", "C_16F"), ("D_R_32F", "C_32F"), ("D_R_32I", "C_32I"))
    )
    assert derive_transform(cuda, _index(tmp_path, "h.h", HIP_APART), "gemm", "hgemm") == expected
    # HIP's legacy form takes one type everywhere: nothing to convert to
    assert derive_transform(cuda, _index(tmp_path, "l.h", HIP_LEGACY), "gemm", "hgemm") is None
    # the versioned sibling the signature check chooses on ROCm 6 keeps them apart
    sibling = _index(tmp_path, "s.h", HIP_LEGACY + HIP_APART.replace("hgemm", "hgemm_v2"))
    assert derive_transform(cuda, sibling, "gemm", "hgemm") == expected


def test_transform_json_round_trip() -> None:
    t = Transform(kind="migrate_arg", arg=17, values=(("CUDA_R_32F", "CUBLAS_COMPUTE_32F"),))
    assert Transform.from_json(t.to_json()) == t


SOURCE = """#include <cublas_v2.h>
void f(cublasHandle_t h, const void* a, void* c, bool i8) {
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, a, a, CUDA_R_8I, 4, a, CUDA_R_8I, 4, a, c, CUDA_R_32F, 4,
                 i8 ? CUDA_R_32I : CUDA_R_32F, CUBLAS_GEMM_DEFAULT);
}
"""


@pytest.mark.parametrize("engine", ["regex", "clang"])
@pytest.mark.parametrize(("rocm", "name"), [((6, 4), "hipblasGemmEx_v2("), ((7, 2), "hipblasGemmEx(")])
def test_compute_type_argument_is_translated_as_a_compute_type(engine: str, rocm: tuple[int, int], name: str) -> None:
    usable, reason = clang_status()
    if engine == "clang" and not usable:
        pytest.skip(f"libclang unavailable: {reason}")
    out = translate(SOURCE, "gemm.cu", Options(engine=engine, rocm_version=rocm)).text
    assert name in out
    assert "HIP_R_8I, 4, a, c, HIP_R_32F, 4,\n                 i8 ? HIPBLAS_COMPUTE_32I : HIPBLAS_COMPUTE_32F," in out


def test_an_enumerator_hip_lacks_is_reported_with_what_hip_offers() -> None:
    source = "#include <cublasLt.h>\ncublasLtPointerMode_t m = CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO;\n"
    result = translate(source, "lt.cu", Options(engine="regex"))
    (message,) = [d.message for d in result.diagnostics if d.code == "HPY101"]
    assert "HIP's hipblasLtPointerMode_t has " in message and "HIPBLASLT_POINTER_MODE_HOST" in message


def test_a_compute_type_the_text_cannot_tell_is_reported() -> None:
    source = SOURCE.replace("i8 ? CUDA_R_32I : CUDA_R_32F", "computeType").replace(
        "bool i8", "cudaDataType_t computeType"
    )
    result = translate(source, "gemm.cu", Options(engine="regex"))
    (message,) = [d.message for d in result.diagnostics if d.code == "HPY109"]
    assert "(computeType) may be a cudaDataType" in message and "hipblasComputeType_t" in message
    assert not [d for d in translate(SOURCE, "gemm.cu", Options(engine="regex")).diagnostics if d.code == "HPY109"]
