"""One missing piece never sinks the whole project: each mechanism with a small tree of our own.

- a statement (else a function body) needing an API HIP lacks is left out alone, so the shared struct around it
  and every file using it compile;
- tiers decided in one header and tested in another, by numeric constants and guard macros;
- a single-source project's own HIP prelude and its HIP aliases of CUDA names.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import RocmCompiler

from hipify import Options, translate
from hipify.cli.cli import main
from hipify.lexing.declarations import top_level_declarations
from hipify.lexing.lexer import lex
from hipify.lexing.statements import smallest_units, statements

ENGINES = ("regex", "clang")

CONTEXT_H = """\
#pragma once
#include <cstdio>
#include <cuda_runtime.h>
#include <cublas_v2.h>

struct backend_context {
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  void init() {
    cudaStreamCreate(&stream);
    cublasCreate(&blas);
  }
  void reset_l2() { cudaCtxResetPersistingL2Cache(); }
  int l2_status() {
    cudaError_t status = cudaCtxResetPersistingL2Cache();
    return (int)status;
  }
  void sync() const { cudaStreamSynchronize(stream); }
};
"""
OP_CU = """\
#include "context.h"
__global__ void scale(float* x, float f) { x[threadIdx.x] *= f; }
void run_scale(backend_context& ctx, float* x) {
  scale<<<1, 32, 0, ctx.stream>>>(x, 2.0f);
  ctx.sync();
}
"""
MAIN_CU = """\
#include "context.h"
void run_scale(backend_context& ctx, float* x);
int main() {
  backend_context ctx;
  ctx.init();
  run_scale(ctx, nullptr);
  return 0;
}
"""


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "cache"))


def _translate(root: Path, files: dict[str, str], engine: str, *flags: str) -> tuple[Path, int]:
    src = root / "src"
    for rel, text in files.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    out = root / "out"
    return out, main([str(src), "--out-dir", str(out), "--engine", engine, "-q", *flags])


@pytest.mark.parametrize("engine", ENGINES)
def test_a_statement_needing_a_missing_api_is_left_out_and_the_struct_stays(tmp_path: Path, engine: str) -> None:
    out, code = _translate(tmp_path, {"context.h": CONTEXT_H, "op.cu": OP_CU, "main.cu": MAIN_CU}, engine)
    assert code == 0
    text = (out / "context.h").read_text()
    assert "struct backend_context {" in text and "HIPIFY_ENABLE_backend_context" not in text
    # the one statement, its own lines, the program stopping where it is reached
    assert (
        "  void reset_l2() {\n#if defined(HIPIFY_ENABLE_cudaCtxResetPersistingL2Cache)\n"
        "  cudaCtxResetPersistingL2Cache();\n#else\n"
        '  hipify_unavailable("cudaCtxResetPersistingL2Cache");  // hipify-py: HIP lacks it (HPY010)\n'
        "#endif  // defined(HIPIFY_ENABLE_cudaCtxResetPersistingL2Cache)\n  }\n"
    ) in text
    # a statement whose result declares what later code reads: the whole body goes
    body = text[text.index("int l2_status() {") : text.index("void sync()")]
    assert body.index("#if defined(") < body.index("hipError_t status") < body.index("return (int)status;")
    assert "#else\n" in body and body.rstrip().endswith("}")
    assert "hipStreamCreate(&stream);" in text and "hipblasCreate(&blas);" in text
    assert "hipify_unavailable" in (out / "hipify_compat.h").read_text()
    # the translation of the translation changes nothing
    assert main([str(out), "--out-dir", str(tmp_path / "again"), "--engine", engine, "-q"]) == 0
    assert (tmp_path / "again" / "context.h").read_text() == text


@pytest.mark.hipcc
def test_every_file_using_the_struct_compiles(tmp_path: Path, rocm: RocmCompiler) -> None:
    out, _ = _translate(rocm.work, {"context.h": CONTEXT_H, "op.cu": OP_CU, "main.cu": MAIN_CU}, "regex")
    for name in ("op.cu", "main.cu"):
        proc = rocm.compile(out / name, archs=("gfx90a", "gfx1030"))
        assert proc.returncode == 0, proc.stderr[-3000:]


# A library's own source (its exported API): one function needs a cuBLASLt pointer mode HIP lacks in a variable
# later code reads; another calls a cuDNN function, which --miopen translates.
LIBRARY_CU = """\
#include <cstdio>
#include <cublasLt.h>
int set_mode(cublasLtMatmulDesc_t desc) {
  cublasLtPointerMode_t mode = CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO;
  return (int)cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, &mode, sizeof(mode));
}
int create(cublasLtHandle_t* handle) { return (int)cublasLtCreate(handle); }
void report(cudaError_t e) {
  std::printf("%s\\n", cudaGetErrorString(e));
  cudaArrayGetPlane(nullptr, nullptr, 0);
}
"""
DNN_CU = """\
#include <cudnn.h>
int dnn() { cudnnHandle_t h; return (int)cudnnCreate(&h); }
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_translation_units_own_code_loses_a_statement_or_a_body_never_a_declaration(
    tmp_path: Path, engine: str
) -> None:
    out, code = _translate(tmp_path, {"library.cu": LIBRARY_CU, "dnn.cu": DNN_CU}, engine)
    assert code == 0
    text = (out / "library.cu").read_text()
    # the variable later code reads: the body goes, the signature stays
    body = text[text.index("int set_mode(hipblasLtMatmulDesc_t desc) {") : text.index("int create(")]
    assert body.index("#if defined(HIPIFY_ENABLE_CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO)") < body.index(
        '#else\n  hipify_unavailable("CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO");'
    )
    assert "int create(hipblasLtHandle_t* handle) { return (int)hipblasLtCreate(handle); }" in text
    # an expression statement: only it
    assert '  std::printf("%s\\n", hipGetErrorString(e));\n#if defined(HIPIFY_ENABLE_cudaArrayGetPlane)\n' in text
    # what --miopen translates is left as written, its finding naming the option
    dnn = (out / "dnn.cu").read_text()
    assert "int dnn() { cudnnHandle_t h; return (int)cudnnCreate(&h); }" in dnn and "HIPIFY_ENABLE" not in dnn
    assert main([str(out), "--out-dir", str(tmp_path / "again"), "--engine", engine, "-q"]) == 0
    assert (tmp_path / "again" / "library.cu").read_text() == text


@pytest.mark.hipcc
def test_a_translation_units_own_code_left_out_compiles(tmp_path: Path, rocm: RocmCompiler) -> None:
    out, _ = _translate(rocm.work, {"library.cu": LIBRARY_CU}, "regex")
    proc = rocm.compile(out / "library.cu", archs=("gfx90a",))
    assert proc.returncode == 0, proc.stderr[-3000:]


SPARSE_C = """\
#include <stdio.h>
#include <cusparse.h>
int main(void) {
    cusparseHandle_t handle = NULL;
    cusparseCreate(&handle);
    cusparseCreateSlicedEll(NULL, 0, 0, 0, 0, 0, NULL, NULL, NULL, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
    printf("done\\n");
    return 0;
}
"""


def test_a_c_sources_own_code_is_left_as_written_and_reported(tmp_path: Path) -> None:
    # the stop a program calls where code was left out is C++ (the compatibility header has nothing for C)
    out, code = _translate(tmp_path, {"sparse.c": SPARSE_C, "library.cu": LIBRARY_CU}, "regex")
    assert code == 0
    text = (out / "sparse.c").read_text()
    assert "HIPIFY_ENABLE" not in text and "hipify_compat.h" not in text
    assert "    cusparseCreateSlicedEll(NULL," in text and "hipsparseCreate(&handle);" in text
    assert "HIPIFY_ENABLE" in (out / "library.cu").read_text()


def test_a_branch_hip_never_compiles_holds_nothing_to_leave_out(tmp_path: Path) -> None:
    header = (
        "#pragma once\n#include <cublas_v2.h>\n"
        "struct ctx { cublasHandle_t h; void* ws; size_t n;\n"
        "  void pin() {\n#if CUBLAS_VER_MAJOR >= 11\n    cublasSetWorkspace(h, ws, n);\n#endif\n  }\n"
        "  int version() {\n#if defined(CUBLAS_VERSION)\n    return CUBLAS_VERSION;\n#else\n    return 0;\n#endif\n  }\n"
        "  int patch() {\n#ifdef CUBLAS_VERSION\n    return CUBLAS_VERSION % 100;\n#endif\n    return 0;\n  }\n"
        '  const char* archs() {\n#ifndef __CUDA_ARCH_LIST__\n    return "";\n#else\n'
        "    return STRINGIFY(__CUDA_ARCH_LIST__);\n#endif\n  }\n"
        "};\n"
    )
    out, _ = _translate(tmp_path, {"ctx.h": header, "a.cu": '#include "ctx.h"\nvoid f(ctx& c) { c.pin(); }\n'}, "regex")
    text = (out / "ctx.h").read_text()
    assert "HIPIFY_ENABLE" not in text and "hipify_unavailable" not in text


def test_statements_and_their_kinds() -> None:
    code = "int f(int a) {\n  g(a);\n  int b = h(a);\n  if (a) k(a);\n  for (;;) { m(); }\n  return n(b);\n}\n"
    lexed = lex(code)
    decl = top_level_declarations(lexed.masked, list(lexed.directives))[0]
    body = (decl.head_end + 1, decl.end - 1)
    found = [(code[st.span[0] : st.span[1]], st.kind) for st in statements(lexed.masked, body, [])]
    assert ("g(a);", "expression") in found
    assert ("int b = h(a);", "declaration") in found
    assert ("if (a) k(a);", "control") in found
    assert ("m();", "expression") in found
    assert ("return n(b);", "return") in found
    uses = [code.index("k(a)"), code.index("m()")]
    units = smallest_units(lexed.masked, decl, uses, [])
    assert units is not None and len(units) == 1 and units[0].whole_body  # k(a) is under an if without braces
    alone = smallest_units(lexed.masked, decl, [code.index("m()"), code.index("g(a)")], [])
    assert alone is not None and [code[u.span[0] : u.span[1]] for u in alone] == ["g(a);", "m();"]
    assert smallest_units(lexed.masked, decl, [code.index("int a")], []) is None  # in the head


TIERS_H = """\
#pragma once
#define CC_VOLTA 700
#define CC_TURING 750
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= CC_TURING
#define MMA_ON
#endif
"""
TIERED_CU = """\
#include "tiers.h"
__device__ float tile(float x) {
#ifdef MMA_ON
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0}, {%1}, {%2}, {%0};" : "+f"(x) : "r"(0), "r"(0));
#endif
  return x;
}
__device__ float fast(float x) {
#if __CUDA_ARCH__ >= CC_VOLTA
  return x * 2.0f;
#else
  return x + x;
#endif
}
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_tiers_cross_files_by_guard_macros_and_constants(tmp_path: Path, engine: str) -> None:
    out, _ = _translate(tmp_path, {"tiers.h": TIERS_H, "tiered.cu": TIERED_CU}, engine)
    # MMA_ON guards inline PTX in another file: the header's condition is decided for a build without it
    assert "#if 0\n#define MMA_ON" in (out / "tiers.h").read_text()
    # CC_VOLTA comes from the header: the op file's condition is decided with it
    assert "#if defined(__HIP_DEVICE_COMPILE__)\n  return x * 2.0f;" in (out / "tiered.cu").read_text()


PRELUDE_H = """\
#pragma once
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)
#define HIP_ENABLE_WARP_SYNC_BUILTINS
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#define PROJ_HIP 1
#else
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#define PROJ_HIP 0
#endif
"""
PRELUDE_CU = """\
#include "prelude.h"
#if PROJ_HIP
#define cudaStream_t hipStream_t
#endif
__global__ void k(__nv_bfloat16* x) { x[threadIdx.x] = __float2bfloat16(1.0f); }
void launch(__nv_bfloat16* x, cudaStream_t s) { k<<<1, 32, 0, s>>>(x); }
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_single_source_prelude_comes_first_and_its_aliases_do_not_stop_translation(
    tmp_path: Path, engine: str
) -> None:
    # ROCm 6.x reads the warp-sync switch (7.x declares the builtins by default: nothing to move first there)
    out, _ = _translate(tmp_path, {"prelude.h": PRELUDE_H, "k.cu": PRELUDE_CU}, engine, "--rocm", "6.4")
    text = (out / "k.cu").read_text()
    assert "#include <hip/hip_runtime.h>" not in text  # the project's own prelude brings it, after its defines
    assert text.startswith("#define HIP_ENABLE_WARP_SYNC_BUILTINS\n")  # what the prelude defines, first
    assert "#define cudaStream_t hipStream_t" in text  # the project's alias, as written
    assert "void launch(__hip_bfloat16* x, hipStream_t s)" in text  # and the CUDA spelling still translated


@pytest.mark.hipcc
def test_a_single_source_prelude_compiles(tmp_path: Path, rocm: RocmCompiler) -> None:
    out, _ = _translate(rocm.work, {"prelude.h": PRELUDE_H, "k.cu": PRELUDE_CU}, "regex")
    proc = rocm.compile(out / "k.cu")
    assert proc.returncode == 0, proc.stderr[-3000:]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_half2_intrinsic_hip_has_for_bfloat16_only_comes_from_the_compatibility_header(engine: str) -> None:
    src = "#include <cuda_fp16.h>\n__device__ half2 m(half2 a, half2 b) { return __hmax2(a, b); }\n"
    result = translate(src, path="m.cu", options=Options(engine=engine, use_cache=False))
    assert "derived__hmax2" in result.compat and "__hmax2(a, b)" in result.text


SKIPPED_BRANCH = """\
#include <cuda.h>
#if defined(CUBLAS_VERSION) && CUBLAS_VERSION >= 12000
#define LIB_HW_DECOMPRESS 1
#endif
CUresult decompress(void* params, size_t count, CUstream stream) {
#ifdef LIB_HW_DECOMPRESS
  return cuMemBatchDecompressAsync(params, count, 0, nullptr, stream);
#else
  return CUDA_ERROR_NOT_SUPPORTED;
#endif
}
CUresult now(CUstream stream) { return cuMemBatchDecompressAsync(nullptr, 0, 0, nullptr, stream); }
"""


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_what_hip_lacks_in_code_the_build_skips_is_a_note_not_a_warning(engine: str) -> None:
    """A branch only a derived switch opens (its macro is defined only under a library's version macro, which HIP
    does not define) is never compiled: its unsupported names are noted, saying so, not warned about."""
    result = translate(SKIPPED_BRANCH, "k.cu", Options(engine=engine, use_cache=False))  # type: ignore[arg-type]
    found = [
        (d.line, d.severity.value, d.message) for d in result.diagnostics if d.subject == "cuMemBatchDecompressAsync"
    ]
    assert [(line, severity) for line, severity, _ in found] == [(7, "info"), (12, "warning")], found
    assert found[0][2].endswith("(in code the translated build skips)")
    assert not found[1][2].endswith("(in code the translated build skips)")


TU_HEADS = """\
#include <cstdio>
#include <cuda.h>
// Declarations whose own head needs a type HIP lacks: a function's parameter, a variable, a struct's member.
CUresult decompress(CUmemDecompressParams* params, size_t count, CUstream stream) {
  return cuMemBatchDecompressAsync(params, count, 0, nullptr, stream);
}
static CUmemDecompressParams last_params;
struct Job {
  CUmemDecompressParams params;
  int count;
};
__global__ void scale(float* x) { x[threadIdx.x] *= 2.0f; }
int main() {
  std::printf("%d\\n", (int)sizeof(float));
  return 0;
}
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_translation_units_declaration_whose_head_needs_what_hip_lacks_is_disabled(
    tmp_path: Path, engine: str
) -> None:
    out, code = _translate(tmp_path, {"main.cu": TU_HEADS}, engine)
    assert code == 0
    text = (out / "main.cu").read_text()
    for name in ("decompress", "last_params", "Job"):
        assert f"#if defined(HIPIFY_ENABLE_{name})" in text, name
    assert "disabled so that this file compiles" in text
    assert "__global__ void scale(float* x)" in text and "int main() {" in text
    assert main([str(out), "--out-dir", str(tmp_path / "again"), "--engine", engine, "-q"]) == 0
    assert (tmp_path / "again" / "main.cu").read_text() == text


@pytest.mark.hipcc
def test_a_translation_units_disabled_declarations_leave_it_compiling(tmp_path: Path, rocm: RocmCompiler) -> None:
    out, _ = _translate(rocm.work, {"main.cu": TU_HEADS}, "regex")
    proc = rocm.compile(out / "main.cu", archs=("gfx90a",))
    assert proc.returncode == 0, proc.stderr[-3000:]
