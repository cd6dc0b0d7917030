"""Each rewrite rule, as no-op / rewrite tables over small inputs (fixture table rows).

Run through ``hipify.translate`` with the regex engine, so the planner sees real facts.
"""

from __future__ import annotations

import pytest

from hipify.knowledge.table import MappingTable
from hipify.lexing.facts import FileFacts, Identifier
from hipify.model import SourceFile
from hipify.options import Options
from hipify.rewrite import plan
from hipify.rewrite.registry import RULES
from hipify.rewrite.rules import RULE_MODULES
from hipify.translation.api import Result, translate

NOT_CU = "x.cpp"  # a path without the .cu rule "always insert the runtime include"


@pytest.fixture(scope="module")
def tx(small_table: MappingTable):
    def run(text: str, path: str = NOT_CU, **kw: object) -> Result:
        options = Options(engine="regex", insert_runtime_include=kw.pop("insert", False), **kw)  # type: ignore[arg-type]
        return translate(text, path=path, options=options, table=small_table)

    return run


def codes(result: Result) -> list[str]:
    return [d.code for d in result.diagnostics]


def test_rules_are_registered_once() -> None:
    # Every module of the rules package registers one rule under its own name.
    assert sorted(RULES) == list(RULE_MODULES)


# --- renames ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src, out",
    [
        ("cudaMalloc(&p, n);", "hipMalloc(&p, n);"),
        ("cudaError_t e = cudaSuccess;", "hipError_t e = hipSuccess;"),
        ("x = cudaMemcpyKind::cudaMemcpyHostToDevice;", "x = hipMemcpyKind::hipMemcpyHostToDevice;"),
        ("::cudaFree(p);", "::hipFree(p);"),
        ("#define F cudaFree\n", "#define F hipFree\n"),
        ("a.cudaPos = b->cudaPos;", "a.hipPos = b->hipPos;"),  # a field row renames members only
    ],
)
def test_renames(tx, src: str, out: str) -> None:
    assert tx(src).text == out


@pytest.mark.parametrize(
    "src",
    [
        "obj.cudaMalloc(p); ptr->cudaFree(p);",  # members are the user's
        "mylib::cudaMalloc(p);",  # a user namespace
        "Foo<int>::cudaMalloc(p);",  # a class member
        "int cudaPos = 1;",  # a field row outside member access
        "// cudaMalloc(p);\n/* cudaFree */",  # comments
        '"cudaMalloc"; R"(cudaFree)"; \'c\';',  # literals
        "mycudaMalloc(p); cudaMallocX(p);",  # whole identifiers only
        "int cudaMalloc(void**, size_t);\nvoid f() { cudaMalloc(p, 1); }",  # declared by the user
    ],
)
def test_renames_no_op(tx, src: str) -> None:
    assert tx(src).text == src


def test_dim3_identity_is_no_edit(tx) -> None:
    result = tx("dim3 g(1);")
    assert result.text == "dim3 g(1);" and result.edits == ()


# --- statuses -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src, code, kw",
    [
        ("cudaProfilerInitialize();", "HPY101", {}),
        ("cudaGraphExperimentalThing();", "HPY103", {}),
        ("cudaBindTexture();", "HPY105", {}),
        ("cudaFuncNewThing();", "HPY106", {"rocm_version": (6, 4)}),
        ("__shfl_down_sync(m, v, 1);", "HPY106", {"rocm_version": (6, 1)}),
        ("cudnnCreate(&h);", "HPY108", {}),
    ],
)
def test_status_diagnostics_leave_text(tx, src: str, code: str, kw: dict) -> None:
    result = tx(src, **kw)
    assert result.text == src
    assert code in codes(result)
    diag = next(d for d in result.diagnostics if d.code == code)
    assert (diag.line, diag.col) == (1, 1)


def test_deprecated_target_is_translated_with_a_warning(tx) -> None:
    result = tx("cudaThreadSynchronize();")
    assert result.text == "hipDeviceSynchronize();"
    [diag] = result.diagnostics
    assert (diag.code, diag.severity.value, diag.line, diag.col) == ("HPY102", "warning", 1, 1)
    assert "deprecated" in diag.message and "hipDeviceSynchronize" in diag.message


@pytest.mark.parametrize(
    "src, out, kw",
    [
        ("cudaThreadSynchronize();", "hipDeviceSynchronize();", {"amap": True}),
        ("cudaGraphExperimentalThing();", "hipGraphExperimentalThing();", {"experimental": True}),
        ("cudnnCreate(&h);", "miopenCreate(&h);", {"miopen": True}),
        ("cublasCreate(&h);", "rocblas_create_handle(&h);", {"roc": True}),
        ("cublasCreate(&h);", "hipblasCreate(&h);", {}),
    ],
)
def test_flags_allow_rewrites(tx, src: str, out: str, kw: dict) -> None:
    assert tx(src, **kw).text == out


def test_each_use_is_reported(tx) -> None:
    result = tx("cudaProfilerInitialize();\ncudaProfilerInitialize();")
    assert [(d.code, d.line) for d in result.diagnostics] == [("HPY101", 1), ("HPY101", 2)]


# --- argument transforms ------------------------------------------------------------------


@pytest.mark.parametrize(
    "src, out",
    [
        ("cudaMemcpyToSymbol(sym, h, n);", "hipMemcpyToSymbol(HIP_SYMBOL(sym), h, n);"),
        ("cudaMemcpyFromSymbol(h, ns::sym, n);", "hipMemcpyFromSymbol(h, HIP_SYMBOL(ns::sym), n);"),
        ("cudaMemcpyToSymbol(HIP_SYMBOL(sym), h, n);", "hipMemcpyToSymbol(HIP_SYMBOL(sym), h, n);"),
        ("cudaMemcpyToSymbol(cudaStreamPerThread, h, n);", "hipMemcpyToSymbol(HIP_SYMBOL(hipStreamPerThread), h, n);"),
        ("cudaStreamCreateFixture(&s);", "hipStreamCreate(&s);"),
        ("cudaStreamCreateFixture(&s, flags);", "hipStreamCreateWithFlags(&s, flags);"),
        ("auto f = cudaStreamCreateFixture;", "auto f = hipStreamCreate;"),
    ],
)
def test_argument_transforms(tx, src: str, out: str) -> None:
    assert tx(src).text == out


def test_deprecated_with_transform_keeps_translating(tx) -> None:
    result = tx("cudaFuncSetAttributeOld(k, a, v);")
    assert result.text == "hipFuncSetAttribute(k, a, v);" and codes(result) == ["HPY102"]


@pytest.mark.parametrize(
    "src, out",
    [
        ("static void CUDART_CB done(void* p);", "static void  done(void* p);"),
        ("void CUDARTAPI f();", "void  f();"),
        ("cudaFuncSetAttribute(k, attr, n);", "hipFuncSetAttribute(reinterpret_cast<const void*>(k), attr, n);"),
        (
            "CUDA_CHECK(cudaFuncSetAttribute(k<float, 4>, attr, n));",
            "CUDA_CHECK(hipFuncSetAttribute(reinterpret_cast<const void*>(k<float, 4>), attr, n));",
        ),
        ("cudaFuncGetAttributes(&a, kernel);", "hipFuncGetAttributes(&a, reinterpret_cast<const void*>(kernel));"),
        (
            "cudaFuncSetAttribute(reinterpret_cast<const void*>(k), a, n);",
            "hipFuncSetAttribute(reinterpret_cast<const void*>(k), a, n);",
        ),
        (
            "cudaFuncSetAttribute(reinterpret_cast< const void * >(k), a, n);",
            "hipFuncSetAttribute(reinterpret_cast< const void * >(k), a, n);",
        ),
        (
            "#define SET(k) cudaFuncSetAttribute(k, a, n)\n",
            "#define SET(k) hipFuncSetAttribute(reinterpret_cast<const void*>(k), a, n)\n",
        ),
    ],
)
def test_remove_and_cast_transforms(tx, src: str, out: str) -> None:
    result = tx(src)
    assert result.text == out
    assert tx(result.text).text == out  # idempotent


# --- namespaces ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src, out",
    [
        ("cub::DeviceReduce::Sum(a);", "hipcub::DeviceReduce::Sum(a);"),
        ("using namespace cub;", "using namespace hipcub;"),
        ("namespace cb = cub;", "namespace cb = hipcub;"),
        ("namespace cb=::cub;", "namespace cb=::hipcub;"),
        ("namespace cbd = cub::detail;", "namespace cbd = hipcub::detail;"),
        ("namespace cub { struct X; }", "namespace hipcub { struct X; }"),
        ("::cub::BlockReduce<int, 4> r;", "::hipcub::BlockReduce<int, 4> r;"),
    ],
)
def test_namespaces(tx, src: str, out: str) -> None:
    assert tx(src).text == out


@pytest.mark.parametrize(
    "src", ["int cub = 1; f(cub);", "x.cub::y;", "thrust::cub::z;", "int x = cub;", "namespace cb = mine::cub;"]
)
def test_namespaces_no_op(tx, src: str) -> None:
    assert tx(src).text == src


# --- includes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src, out, kw",
    [
        ("#include <cuda_runtime.h>\n", "#include <hip/hip_runtime.h>\n", {}),
        ('#include "cuda_runtime.h"\n', '#include "hip/hip_runtime.h"\n', {}),
        ("#include <cuda.h>\n#include <cuda_runtime.h>\nx;\n", "#include <hip/hip_runtime.h>\n\nx;\n", {}),
        ("#include <cuda.h>\n  #include <cuda_runtime.h> // rt\n", "#include <hip/hip_runtime.h>\n// rt\n", {}),
        ("#include <hip/hip_runtime.h>\n#include <cuda_runtime.h>\n", "#include <hip/hip_runtime.h>\n\n", {}),
        ("#include <cublas.h>\n#include <cublas_v2.h>\n", "#include <hipblas/hipblas.h>\n\n", {}),
        ("#include <cublas_v2.h>\n", "#include <hipblas.h>\n", {"rocm_version": (5, 7)}),
        ("#include <cuda_runtime.h>\n", "#include <hip/hip_runtime.h>\n", {"rocm_version": (5, 7)}),
        ("#include <cublas_v2.h>\n", "#include <rocblas/rocblas.h>\n", {"roc": True}),
        ("#include <cudnn.h>\n", "#include <miopen/miopen.h>\n", {"miopen": True}),
        (
            "#ifdef A\n#include <cuda.h>\n#else\n#include <cuda_runtime.h>\n#endif\n",
            "#ifdef A\n#include <hip/hip_runtime.h>\n#else\n#include <hip/hip_runtime.h>\n#endif\n",
            {},
        ),
        (
            "#include <cuda.h>\n#ifdef A\n#include <cuda_runtime.h>\n#endif\n",
            "#include <hip/hip_runtime.h>\n#ifdef A\n\n#endif\n",
            {},
        ),
    ],
)
def test_includes(tx, src: str, out: str, kw: dict) -> None:
    assert tx(src, **kw).text == out


@pytest.mark.parametrize("src", ["#include <vector>\n", '#include "my_cuda_helpers.h"\n', "#include MACRO\n"])
def test_includes_no_op(tx, src: str) -> None:
    assert tx(src).text == src


def test_cudnn_header_needs_miopen(tx) -> None:
    result = tx("#include <cudnn.h>\n")
    assert result.text == "#include <cudnn.h>\n" and "HPY108" in codes(result)


# --- runtime include ----------------------------------------------------------------------

INC = "#include <hip/hip_runtime.h>"


@pytest.mark.parametrize(
    "src, out",
    [
        ("__global__ void k() {}\n", f"{INC}\n\n__global__ void k() {{}}\n"),
        ("#ifndef A_H\n#define A_H\nint x;\n#endif\n", f"#ifndef A_H\n#define A_H\n\n{INC}\nint x;\n#endif\n"),
        ("#if !defined(A_H)\n#define A_H\n#endif\n", f"#if !defined(A_H)\n#define A_H\n\n{INC}\n#endif\n"),
        ("// c\n#pragma once\n#include <a>\n", f"// c\n#pragma once\n\n{INC}\n#include <a>\n"),
        ("#include <a>\n", f"{INC}\n#include <a>\n"),
        ("// lic\n#include <a>\n", f"// lic\n\n{INC}\n#include <a>\n"),
        ("// lic\n\n#include <a>\n", f"// lic\n\n{INC}\n#include <a>\n"),
        ("/* lic */\nint x;\n", f"/* lic */\n\n{INC}\nint x;\n"),
        (
            "#ifdef W\n#include <w.h>\n#endif\n#include <a>\n",
            f"#ifdef W\n#include <w.h>\n#endif\n\n{INC}\n#include <a>\n",
        ),
        ("\ufeffint x;", f"\ufeff{INC}\n\nint x;"),
        ("#include <a>\r\nint x;\r\n", f"{INC}\r\n#include <a>\r\nint x;\r\n"),
        ("#pragma once", f"#pragma once\n\n{INC}"),
    ],
)
def test_runtime_include_positions(tx, src: str, out: str) -> None:
    assert tx(src, path="k.cu", insert=True).text == out


@pytest.mark.parametrize(
    "src, path, inserted",
    [
        ("int add(int a, int b) { return min(a, b); }\n", "a.cpp", False),
        ("void f() { cudaFree(p); }\n", "a.cpp", True),
        ("__device__ int g;\n", "a.h", True),
        ("void f() { k<<<1, 1>>>(); }\n", "a.cc", True),
        ("#include <cublas_v2.h>\nvoid f() { cublasCreate(&h); }\n", "a.cpp", False),
        ("int x;\n", "a.cuh", True),
        ("#include <cuda_runtime.h>\n", "a.cu", False),  # rewritten instead
        ("#if 0\nvoid f() { cudaFree(p); }\n#endif\n", "a.cpp", False),
    ],
)
def test_runtime_include_when(tx, src: str, path: str, inserted: bool) -> None:
    result = tx(src, path=path, insert=True)
    assert any(e.code == "HPY003" for e in result.edits) == inserted
    assert result.text.count(INC) <= 1


# --- launches -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src, out",
    [
        ("k<<<g, b>>>(x);", "hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, x);"),
        ("k<<<g, b, sh>>>();", "hipLaunchKernelGGL(k, dim3(g), dim3(b), sh, 0);"),
        ("k<<<dim3(1), dim3(2), 0, s>>>(a, b);", "hipLaunchKernelGGL(k, dim3(1), dim3(2), 0, s, a, b);"),
        ("k<T><<<1, 2>>>(p);", "hipLaunchKernelGGL(HIP_KERNEL_NAME(k<T>), dim3(1), dim3(2), 0, 0, p);"),
        ("cub::k<T><<<1, 2>>>(p);", "hipLaunchKernelGGL(HIP_KERNEL_NAME(hipcub::k<T>), dim3(1), dim3(2), 0, 0, p);"),
        (
            "k<<<1, 2, 0, cudaStreamPerThread>>>(cudaSuccess);",
            "hipLaunchKernelGGL(k, dim3(1), dim3(2), 0, hipStreamPerThread, hipSuccess);",
        ),
        ("k<<<1, 2>>>( a,\n  b );", "hipLaunchKernelGGL(k, dim3(1), dim3(2), 0, 0, a,\n  b );"),
    ],
)
def test_launches(tx, src: str, out: str) -> None:
    assert tx(src, hip_kernel_syntax=True).text == out


def test_launches_kept_by_default(tx) -> None:
    assert tx("k<<<g, b>>>(x);").text == "k<<<g, b>>>(x);"


# --- warp sync ----------------------------------------------------------------------------


def test_warp_sync_define_and_diagnostic(tx) -> None:
    src = "#include <cuda_runtime.h>\nv = __shfl_xor_sync(mask, v, 1);\n"
    result = tx(src, rocm_version=(6, 4))
    assert result.text == (
        "#define HIP_ENABLE_WARP_SYNC_BUILTINS\n#include <hip/hip_runtime.h>\n"
        '#include "hipify_compat.h"\n'  # its overloads take a 32-bit mask the translation could not widen
        "v = __shfl_xor_sync(mask, v, 1);\n"
    )
    assert codes(result) == ["HPY107"]
    # ROCm 7 declares the warp-sync builtins by default (64-bit masks still: the same compatibility overloads)
    seven = tx(src, rocm_version=(7, 2))
    assert seven.text == result.text.replace("#define HIP_ENABLE_WARP_SYNC_BUILTINS\n", "")
    assert codes(seven) == ["HPY107"]


FULL = "0xffffffffffffffffULL"


@pytest.mark.parametrize(
    "src, out",
    [
        ("v = __shfl_xor_sync(0xffffffff, v, 1);", f"v = __shfl_xor_sync({FULL}, v, 1);"),
        ("v = __shfl_down_sync( 0xFFFFFFFFu , v, 1);", f"v = __shfl_down_sync( {FULL} , v, 1);"),
        ("b = __ballot_sync(0xffffffffUL, p);", f"b = __ballot_sync({FULL}, p);"),
        ("v = __shfl_sync(0xFFFFFFFFU, v, 0);", f"v = __shfl_sync({FULL}, v, 0);"),
        ("__syncwarp(0xffffffff);", f"__syncwarp({FULL});"),
        (
            "#define FULL_MASK 0xffffffff\nv = __shfl_xor_sync(FULL_MASK, v, 1); b = __ballot_sync(FULL_MASK, p);",
            f"#define FULL_MASK {FULL}\nv = __shfl_xor_sync(FULL_MASK, v, 1); b = __ballot_sync(FULL_MASK, p);",
        ),
        ("#define M(x) __shfl_xor_sync(0xffffffffu, x, 1)\n", f"#define M(x) __shfl_xor_sync({FULL}, x, 1)\n"),
        ("CHECK(__ballot_sync(0xffffffff, p));", f"CHECK(__ballot_sync({FULL}, p));"),
    ],
)
def test_full_warp_masks_are_widened(tx, src: str, out: str) -> None:
    result = tx(src)
    body = result.text.split("#include <hip/hip_runtime.h>\n")[-1].replace(
        "#define HIP_ENABLE_WARP_SYNC_BUILTINS\n", ""
    )
    body = body.replace('#include "hipify_compat.h"\n', "")  # __syncwarp comes from the compatibility header
    assert body.lstrip("\n") == out
    assert "HPY107" not in codes(result)
    assert "HPY008" in {e.code for e in result.edits}
    assert tx(result.text).text == result.text  # idempotent


@pytest.mark.parametrize(
    "src",
    [
        "v = __shfl_xor_sync(mask, v, 1);",  # a variable
        "v = __shfl_xor_sync(0x0000ffff, v, 1);",  # a partial mask
        "v = __shfl_xor_sync(0xffffffff & m, v, 1);",  # an expression
        "#define FULL_MASK 0xffffffff\n#define FULL_MASK 0xff\nv = __shfl_xor_sync(FULL_MASK, v, 1);",
        "const unsigned FULL_MASK = 0xffffffff;\nv = __shfl_xor_sync(FULL_MASK, v, 1);",
    ],
)
def test_other_warp_masks_are_reported(tx, src: str) -> None:
    result = tx(src)
    assert "HPY008" not in {e.code for e in result.edits}
    assert "HPY107" in codes(result)


@pytest.mark.parametrize(
    "src",
    [
        "v = __shfl_xor_sync(__activemask(), v, 1);",
        "unsigned long long m = __activemask();",  # needs the define, takes no mask
        f"v = __shfl_xor_sync({FULL}, v, 1);",
    ],
)
def test_64_bit_masks_are_fine(tx, src: str) -> None:
    result = tx(src)
    assert "HPY107" not in codes(result) and "HPY008" not in {e.code for e in result.edits}


def test_masks_untouched_for_old_rocm(tx) -> None:
    src = "__syncwarp(0xffffffff);"
    result = tx(src, rocm_version=(6, 1))
    assert result.text.endswith(src) and "HPY008" not in {e.code for e in result.edits}


# --- required macros ----------------------------------------------------------------------


def test_required_macros_one_line_each_in_name_order(tx) -> None:
    src = "#include <cuda_runtime.h>\nx = __fadd_rz(a, b) + __fmul_rz(a, b);\nv = __shfl_xor_sync(m, v, 1);\n"
    result = tx(src, rocm_version=(6, 4))
    assert result.text.startswith(
        "#define HIP_ENABLE_WARP_SYNC_BUILTINS\n#define OCML_BASIC_ROUNDED_OPERATIONS\n#include <hip/hip_runtime.h>\n"
    )
    assert tx(result.text, rocm_version=(6, 4)).text == result.text


def test_required_macros_by_target_version(tx) -> None:
    # OCML's define is needed by every ROCm; the warp-sync one only by 6.2 to 6.4.
    src = "#include <cuda_runtime.h>\nx = __fadd_rz(a, b);\nv = __shfl_xor_sync(m, v, 1);\n"
    for version in ((5, 7), (6, 1), (7, 0), (7, 2)):
        assert tx(src, rocm_version=version).text.startswith(
            "#define OCML_BASIC_ROUNDED_OPERATIONS\n#include <hip/hip_runtime.h>\n"
        )


def test_required_macros_with_inserted_include(tx) -> None:
    src = "__device__ float f(float a) { return __fadd_rz(a, a) + __shfl_sync(m, a, 0); }\n"
    result = tx(src, path="a.cu", insert=True, rocm_version=(6, 4))
    assert result.text.startswith(
        "#define HIP_ENABLE_WARP_SYNC_BUILTINS\n#define OCML_BASIC_ROUNDED_OPERATIONS\n"
        '#include <hip/hip_runtime.h>\n#include "hipify_compat.h"\n\n__device__'
    )
    assert tx(result.text, path="a.cu", insert=True, rocm_version=(6, 4)).text == result.text


def test_warp_sync_with_inserted_include(tx) -> None:
    result = tx("v = __ballot_sync(m, p);\n", path="a.cu", insert=True, rocm_version=(6, 4))
    assert result.text.startswith(
        '#define HIP_ENABLE_WARP_SYNC_BUILTINS\n#include <hip/hip_runtime.h>\n#include "hipify_compat.h"\n\n'
    )


@pytest.mark.parametrize(
    "src, kw",
    [
        ("v = __shfl_down(v, 1);\n", {}),
        ("v = __shfl_down_sync(m, v, 1);\n", {"rocm_version": (6, 1)}),
        ("#define HIP_ENABLE_WARP_SYNC_BUILTINS\n#include <hip/hip_runtime.h>\nv = __shfl_down_sync(m, v, 1);\n", {}),
    ],
)
def test_warp_sync_no_op(tx, src: str, kw: dict) -> None:
    assert tx(src, **kw).text.count("#define HIP_ENABLE") == src.count("#define HIP_ENABLE")


# --- unknown names ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src, unknown",
    [
        ("cudaBrandNewApi(x);", ["cudaBrandNewApi"]),
        ("CUDA_SOMETHING; cuFoo(); CUBar y; CUbar z;", ["CUDA_SOMETHING", "cuFoo", "CUBar"]),
        ("#define CUDA_CHECK(x) x\nCUDA_CHECK(f());", []),
        ("s.cudaField; ns::cudaThing; current; cube; CUSTOM;", ["CUSTOM"]),
        ('// cudaInComment\n"cudaInString";', []),
    ],
)
def test_unknown_names(tx, src: str, unknown: list[str]) -> None:
    result = tx(src)
    assert [d.subject for d in result.diagnostics if d.code == "HPY104"] == unknown
    assert result.text == src


def test_unknown_names_can_be_silenced(tx) -> None:
    assert "HPY104" not in codes(tx("cudaBrandNewApi(x);", warn_unknown=False))


# --- suppression and inactive code --------------------------------------------------------


def test_suppression_regions(tx) -> None:
    src = (
        "cudaFree(a);\n// hipify-py: off\ncudaFree(b); cudaProfilerInitialize();\n// hipify-py: on\n"
        "cudaFree(c); // hipify-py: ignore\ncudaFree(d);\n"
    )
    result = tx(src)
    assert result.text == src.replace("cudaFree(a)", "hipFree(a)").replace("cudaFree(d)", "hipFree(d)")
    assert "HPY101" not in codes(result)


def test_skip_file(tx) -> None:
    src = "/* hipify-py: skip-file */\ncudaFree(a);\n"
    result = tx(src, path="a.cu", insert=True)
    assert result.text == src and codes(result) == ["HPY305"]


def test_markers_in_strings_do_not_count(tx) -> None:
    assert tx('s = "hipify-py: off"; cudaFree(a);').text == 's = "hipify-py: off"; hipFree(a);'


def test_inactive_code(tx) -> None:
    src = "#if 0\ncudaFree(a);\n#endif\n"
    assert tx(src).text == src.replace("cudaFree", "hipFree")
    assert tx(src, skip_excluded_blocks=True).text == src
    assert tx(src, skip_excluded_blocks=True, amap=True).text == src.replace("cudaFree", "hipFree")


# --- the planner itself -------------------------------------------------------------------


def test_plan_is_engine_neutral(small_table: MappingTable) -> None:
    text = "cudaFree(p);"
    facts = FileFacts((Identifier(0, 8, "cudaFree", next_token="("),), (), (), (), ())
    result = plan(SourceFile("a.cpp", text), facts, small_table, Options(insert_runtime_include=False), "clang")
    assert result.engine == "clang"
    assert [(e.start, e.end, e.replacement, e.code) for e in result.edits] == [(0, 8, "hipFree", "HPY001")]


def test_user_declared_fact_blocks_rename(small_table: MappingTable) -> None:
    facts = FileFacts((Identifier(0, 8, "cudaFree", user_declared=True),), (), (), (), ())
    result = plan(SourceFile("a.cpp", "cudaFree"), facts, small_table, Options(insert_runtime_include=False), "clang")
    assert result.edits == () and result.diagnostics == ()


def test_failing_rule_is_reported_not_raised(small_table: MappingTable, monkeypatch) -> None:
    def broken(ctx):
        raise RuntimeError("boom")

    monkeypatch.setitem(RULES, "unknown", broken)
    facts = FileFacts((Identifier(0, 8, "cudaFree"),), (), (), (), ())
    result = plan(SourceFile("a.cpp", "cudaFree"), facts, small_table, Options(insert_runtime_include=False), "regex")
    assert [e.replacement for e in result.edits] == ["hipFree"]
    assert [d.code for d in result.diagnostics] == ["HPY204"]


# --- preprocessor contexts ---------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_compiler_macros_take_their_hip_meaning(engine: str) -> None:
    src = (
        "#ifndef __CUDACC__\ninline float fmaxf_(float a, float b) { return a > b ? a : b; }\n#endif\n"
        "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800\nint old_path;\n#endif\n"
        "#ifdef __NVCC__\nint nv;\n#endif\n"
    )
    result = translate(src, path="a.cpp", options=Options(engine=engine, use_cache=False))
    assert "#ifndef __HIPCC__\n" in result.text
    # a current build's device pass is sm_80, its host pass has no __CUDA_ARCH__: never taken (HPY019)
    assert "#if 0\nint old_path;\n" in result.text
    assert "#ifdef __HIPCC__\n" in result.text
    decided = [d for d in result.diagnostics if d.code == "HPY019"]
    assert [(d.line, d.subject) for d in decided] == [(4, "__CUDA_ARCH__")]
    assert not [d for d in result.diagnostics if d.code == "HPY110"]


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_removed_macro_tested_by_the_preprocessor_asks_the_hip_header(engine: str) -> None:
    src = "#include <cusparse.h>\n#ifdef CUSPARSEAPI\nint a;\n#endif\n#if defined(CUSPARSEAPI)\nint b;\n#endif\n"
    result = translate(src, path="a.h", options=Options(engine=engine, use_cache=False))
    assert "#ifdef HIPSPARSE_H\n" in result.text and "#if defined(HIPSPARSE_H)\n" in result.text
    assert "CUSPARSEAPI" not in result.text


def test_removing_a_macro_never_glues_tokens() -> None:
    src = "int z = 4/CUBLASAPI*2;\nvoid CUBLASAPI f();\n"
    result = translate(src, path="a.cpp", options=Options(engine="regex", use_cache=False))
    assert result.text == "int z = 4/ *2;\nvoid  f();\n"


def test_register_storage_class_is_removed_outside_c() -> None:
    src = '// register in a comment\nvoid f() { register int x = 1; const char* s = "register"; }\n'
    result = translate(src, path="a.cpp", options=Options(engine="regex", use_cache=False))
    assert 'void f() { int x = 1; const char* s = "register"; }' in result.text
    assert "// register in a comment" in result.text
    c = translate(src, path="a.c", options=Options(engine="regex", use_cache=False))
    assert "register int x" in c.text  # C still has it


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_cuda_version_comparisons_are_decided_for_a_build_whose_branches_hip_compiles(engine: str) -> None:
    src = (
        "#ifdef CUDART_VERSION\nint a;\n#endif\n#if CUDA_VERSION >= 12080\nint b;\n#endif\n"
        "#if CUDART_VERSION >= 13000\ncudaEmulationMantissaControl c;\n#endif\n"
    )
    result = translate(src, path="a.cpp", options=Options(engine=engine, use_cache=False))
    assert "#ifdef HIP_VERSION\n" in result.text and "#if 1\nint b;\n" in result.text
    # a branch the newest build takes but that uses an API HIP lacks is decided as an older CUDA decides it
    assert "#if 0\ncudaEmulationMantissaControl c;" in result.text
    assert [d.subject for d in result.diagnostics if d.code == "HPY019"] == ["CUDA_VERSION", "CUDART_VERSION"]
    assert not [d for d in result.diagnostics if d.code == "HPY110"]


# --- inline PTX ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("src", "message"),
    [
        ('__device__ int lane() { int id; asm volatile("{ mov.u32 %0, %%laneid; }" : "=r"(id)); return id; }',
         "inline PTX assembly (laneid): AMD GPUs do not run PTX; HIP has __lane_id()"),
        ('__device__ float r(float x) { float y; asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); return y; }',
         "inline PTX assembly (rcp.approx.ftz.f32): AMD GPUs do not run PTX; HIP has __frcp_rn()"),
        ('#define COMMIT() asm volatile("cp.async.commit_group;\\n" ::)\n',
         "inline PTX assembly (cp.async.commit_group): AMD GPUs do not run PTX; write it with a HIP builtin or plain code"),
    ],
)  # fmt: skip
def test_inline_ptx_is_reported_with_what_hip_has(tx, src: str, message: str) -> None:
    result = tx(src)
    assert [d.message for d in result.diagnostics if d.code == "HPY117"] == [message]
    assert result.text == src  # reported, never rewritten


@pytest.mark.parametrize(
    "src",
    [
        'static inline unsigned long long cycles() { unsigned hi, lo; asm volatile("rdtsc" : "=a"(lo), "=d"(hi)); '
        "return ((unsigned long long)hi << 32) | lo; }",
        '__device__ void fence() { asm volatile("" ::: "memory"); }',
        '// asm("mov.u32 %0, %%laneid;")\nconst char *s = "asm(\\"mov.u32\\")";',
        "int plasma(int asm_level) { return asm_level; }",
    ],
)
def test_host_assembly_barriers_comments_and_strings_are_not_ptx(tx, src: str) -> None:
    assert "HPY117" not in codes(tx(src))


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ('asm volatile("red.global.add.u64 [%0], %1;" :: "l"(p), "l"(n) : "memory");',
         "atomicAdd((unsigned long long*)(p), (unsigned long long)(n));"),
        ('asm("red.relaxed.gpu.global.add.u32 [%0], %1;\\n" : : "l"(&c[i]), "r"(1u));',
         "atomicAdd((unsigned int*)(&c[i]), (unsigned int)(1u));"),
        ('asm volatile("mov.u32 %0, %%laneid;" : "=r"(s.lane));', "s.lane = __lane_id();"),
        ('asm volatile("activemask.b32 %0;" : "=r"(m));', "m = __ballot(1);"),
        ('asm volatile("mov.u64 %0, %%clock64;" : "=l"(*t));', "(*t) = clock64();"),
        ('asm volatile("mov.u32 %0, %%clock;" : "=r"(t[0]));', "t[0] = clock();"),
    ],
)  # fmt: skip
def test_single_instruction_ptx_with_an_exact_hip_counterpart_is_translated(tx, statement: str, expected: str) -> None:
    src = f"__device__ void f(unsigned long long *p, unsigned long long n, unsigned *c, int i, unsigned m, S s) {{ {statement} }}"
    result = tx(src)
    assert result.text == src.replace(statement, expected)
    assert "HPY117" not in codes(result) and [e.code for e in result.edits] == ["HPY025"]


@pytest.mark.parametrize(
    "statement",
    [
        'asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));',  # nanoseconds: HIP's wall clock ticks otherwise
        'asm volatile("red.global.add.u64 [%0], %1; membar.gl;" :: "l"(p), "l"(n));',  # two instructions
        'asm volatile("atom.global.add.u64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(n));',  # not a reduction
        'asm volatile("red.global.add.u64 [%0], %2;" :: "l"(p), "l"(n));',  # no such operand
    ],
)
def test_other_ptx_stays_reported(tx, statement: str) -> None:
    src = f"__device__ void f() {{ {statement} }}"
    result = tx(src)
    assert result.text == src and "HPY117" in codes(result)


def test_inline_ptx_inside_an_if_branch_is_the_builds_choice(tx) -> None:
    src = (
        '__device__ unsigned lane() {\n#ifdef PTX\n  unsigned r;\n  asm("mov.u32 %0, %%smid;" : "=r"(r));\n'
        "  return r;\n#else\n  return threadIdx.x % warpSize;\n#endif\n}\n"
    )
    assert "HPY117" not in codes(tx(src))
    guarded = "#ifndef LANE_H\n#define LANE_H\n" + src.replace("#ifdef PTX\n", "").split("#else")[0] + "}\n#endif\n"
    assert "HPY117" in codes(tx(guarded))  # an include guard is no choice


# --- device_launches ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "src, lines",
    [
        ("__global__ void c(int* p) {}\n__global__ void k(int* p) { c<<<1, 1>>>(p); }\n", [2]),
        (
            "template <class T> __global__ void c(T* p) {}\n__device__ void d(int* p) {\n  c<int><<<2, 2>>>(p);\n}\n",
            [3],
        ),
        ("__global__ void c(int* p) {}\nvoid host(int* p) { c<<<1, 1>>>(p); }\n", []),  # the host launches
        ("__global__ void c(int* p) {}\n__host__ __device__ void hd(int* p) { }\n", []),
        ("__global__ void k(int* p) { /* c<<<1, 1>>>(p); */ }\n", []),  # a comment
    ],
)
def test_device_launches(tx, src: str, lines: list[int]) -> None:
    result = tx(src, path="k.cu")
    assert [d.line for d in result.diagnostics if d.code == "HPY124"] == lines
    assert result.text == src


# --- #pragma weak --------------------------------------------------------------------------


def test_pragma_weak_is_kept_out_of_the_device_pass(tx) -> None:
    src = "int f(int x) { return x; }\n#pragma weak g = f\n#pragma weak h\nint k;\n#pragma weak k2 = k\n"
    result = tx(src, path="a.cu")
    guard = "#if !defined(__HIP_DEVICE_COMPILE__)"
    assert result.text == (
        f"int f(int x) {{ return x; }}\n{guard}\n#pragma weak g = f\n#pragma weak h\n#endif\nint k;\n"
        f"{guard}\n#pragma weak k2 = k\n#endif\n"
    )
    assert tx(result.text, path="a.cu").text == result.text  # already kept out
    assert tx(src, path="a.cpp").text == src  # a host compiler's file: one pass
    assert tx("#pragma once\n#pragma weakly\n", path="a.cu").text == "#pragma once\n#pragma weakly\n"


# --- library version macros ----------------------------------------------------------------


def test_library_version_macros_in_conditions_are_reported() -> None:
    src = "#if CUBLAS_VER_MAJOR >= 11 && CUSPARSE_VER_MAJOR > 10\nint a;\n#endif\nint v = CUBLAS_VER_MINOR;\n"
    result = translate(src, path="a.cu", options=Options(engine="regex", use_cache=False))
    assert "#if hipblasVersionMajor >= 11 && hipsparseVersionMajor > 10\n" in result.text
    assert "int v = hipblasVersionMinor;" in result.text
    found = [d for d in result.diagnostics if d.code == "HPY126"]
    assert [d.subject for d in found] == ["CUBLAS_VER_MAJOR", "CUSPARSE_VER_MAJOR"]  # conditions only, not values
    assert "hipblas's version" in found[0].message and "cublas's numbers" in found[0].message
    # the toolkit's own versions are decided as a CUDA build (HPY019), not reported so
    assert "HPY126" not in {d.code for d in translate("#if CUDART_VERSION >= 11000\n#endif\n", path="a.cu").diagnostics}
