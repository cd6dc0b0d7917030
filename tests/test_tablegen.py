"""The table generator, run on a small fixture header set (tests/fixtures/tablegen: tiny fake CUDA and HIP
headers, including an NVIDIA-backend wrapper header), with exact expected rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hipify.knowledge.table import (
    DuplicateKeyError,
    MappingTable,
    Row,
    Transform,
    load_table_from,
)
from hipify.tablegen.generate import generate
from hipify.tablegen.overrides import load_overrides
from hipify.tablegen.scan import scan_text
from hipify.tablegen.write import render, write_tables

FIXTURE = Path(__file__).parent / "fixtures" / "tablegen"


@pytest.fixture(scope="module")
def generated():
    return generate(FIXTURE, FIXTURE / "overrides.toml", macros_path=None, signatures=False)


@pytest.fixture(scope="module")
def rows(generated) -> dict[str, Row]:
    return {r.cuda: r for api_rows in generated.rows.values() for r in api_rows}


def test_names_and_families(generated) -> None:
    names = {api: [r.cuda for r in rows] for api, rows in generated.rows.items()}
    assert names == {
        "runtime": [
            "CUDARTAPI",
            "__CUDA_RUNTIME_API_H__",
            "__CUDA_RUNTIME_H__",
            "__DRIVER_TYPES_H__",
            "cudaBrandNew",
            "cudaDevAttrClockRate",
            "cudaDevAttrMaxThreadsPerBlock",
            "cudaDevAttrOnlyCuda",
            "cudaDevAttrPoolHandleTypes",
            "cudaDevAttrWarpSize",
            "cudaDeviceAttr",
            "cudaDeviceProp",
            "cudaError",
            "cudaErrorInvalidValue",
            "cudaErrorStrange",
            "cudaError_t",
            "cudaEventCreate",
            "cudaFree",
            "cudaGraphCreate",
            "cudaGraph_t",
            "cudaMalloc",
            "cudaMemcpyDeviceToHost",
            "cudaMemcpyFromSymbol",
            "cudaMemcpyHostToDevice",
            "cudaMemcpyKind",
            "cudaMemcpyToSymbol",
            "cudaOldLaunch",
            "cudaStreamCreate",
            "cudaStream_t",
            "cudaSuccess",
            "cudaThreadSynchronize",
        ],
        "device": [
            "__fadd_rn",
            "__fadd_rz",
            "__fancy_nv_only",
            "__fmul_rz",
            "__frcp_rz",
            "__fsub_rz",
            "__shfl_sync",
            "__syncthreads",
        ],
        "headers": ["cuda_runtime.h", "cuda_runtime_api.h", "driver_types.h"],
    }


def test_wrapper_pair_from_nvidia_backend(rows) -> None:
    assert rows["cudaMalloc"] == Row(
        cuda="cudaMalloc",
        hip="hipMalloc",
        kind="function",
        api="runtime",
        hip_status="supported",
        cuda_header="cuda_runtime_api.h",
        hip_header="hip/hip_runtime_api.h",
        cuda_since="11.8",
        hip_since="5.7",
        source="nvidia_detail",
    )


def test_typedef_define_and_case_pairs(rows) -> None:
    assert rows["cudaDeviceProp"].hip == "hipDeviceProp_t" and rows["cudaDeviceProp"].source == "nvidia_detail"
    assert rows["cudaStream_t"].hip == "hipStream_t" and rows["cudaStream_t"].source == "nvidia_detail"
    assert rows["cudaMemcpyHostToDevice"] == Row(
        cuda="cudaMemcpyHostToDevice",
        hip="hipMemcpyHostToDevice",
        kind="enum_constant",
        api="runtime",
        hip_status="supported",
        cuda_header="driver_types.h",
        hip_header="hip/hip_runtime_api.h",
        parent="cudaMemcpyKind",
        cuda_since="13.0",
        hip_since="6.4",
        source="nvidia_detail",
    )
    assert rows["cudaSuccess"].source == "nvidia_detail"  # from `case cudaSuccess: return hipSuccess;`
    assert rows["cudaMemcpyDeviceToHost"].source == "naming"


def test_unverified_names_are_unsupported_rows(rows) -> None:
    for name in ("cudaErrorStrange", "__fancy_nv_only"):
        assert rows[name].hip == "" and rows[name].hip_status == "unsupported"
    assert "__cuda_internal_helper" not in rows  # CUDA's own helpers are not API


def test_versions_and_statuses(rows) -> None:
    old = rows["cudaThreadSynchronize"].at("6.4")
    assert (old.cuda_since, old.cuda_deprecated, old.cuda_removed) == ("11.8", "11.8", "13.0")
    assert old.hip == "hipThreadSynchronize" and old.hip_status == "experimental"
    assert rows["cudaOldLaunch"].hip_status == "deprecated" and rows["cudaOldLaunch"].cuda_deprecated == "13.0"
    graph = rows["cudaGraphCreate"]
    assert graph.hip_status == "supported" and "beta" in graph.note
    assert rows["cudaFree"].hip_since == "5.7" and rows["cudaGraphCreate"].hip_since == "6.4"


def test_each_release_the_table_is_generated_for_has_its_view(rows) -> None:
    # the fixture's ROCm 7.2 declares hipBrandNew, drops hipThreadSynchronize and declares __shfl_sync by default
    new = rows["cudaBrandNew"]
    assert (new.hip, new.hip_status, new.hip_since, new.by_rocm) == ("hipBrandNew", "supported", "7.2", ())
    gone = rows["cudaThreadSynchronize"]
    assert (gone.hip, gone.hip_status) == ("hipThreadSynchronize", "removed")
    assert [(release, view.hip_status) for release, view in gone.by_rocm] == [("6.4", "experimental")]
    assert rows["cudaMalloc"].by_rocm == ()  # the same in both
    assert MappingTable.from_rows(rows.values()).target_releases == ("6.4", "7.2")


def test_a_view_written_and_read_back_is_the_same(tmp_path: Path, generated) -> None:
    write_tables(tmp_path, generated.rows, {})
    back = {r.cuda: r for r in load_table_from(tmp_path)}
    assert back == {r.cuda: r for rows in generated.rows.values() for r in rows}
    line = next(x for x in (tmp_path / "device.json").read_text().splitlines() if '"cuda":"__shfl_sync"' in x)
    assert json.loads(line.rstrip(","))["by_rocm"] == {"6.4": {"hip_requires": "HIP_ENABLE_WARP_SYNC_BUILTINS"}}


def test_device_rows_and_warp_sync_requirement(rows) -> None:
    assert rows["__syncthreads"].hip == "__syncthreads" and rows["__syncthreads"].kind == "device_function"
    assert rows["__syncthreads"].hip_requires == ""
    assert rows["__shfl_sync"].hip_requires == ""  # 7.x declares the warp *_sync builtins by default
    assert rows["__shfl_sync"].at("6.4").hip_requires == "HIP_ENABLE_WARP_SYNC_BUILTINS"


def test_device_functions_carry_the_parameter_lists_hip_defines(rows) -> None:
    # Read from the fixture's amd_device_functions.h: a body, parameter names and defaults dropped.
    assert rows["__syncthreads"].hip_definitions == "()"
    assert rows["__shfl_sync"].hip_definitions == "(unsigned long long, int, int, int)"
    assert all(not r.hip_definitions for r in rows.values() if r.kind != "device_function")


def test_guard_of_preincluded_headers_maps_to_the_forwarded_callee(rows) -> None:
    # hip/clang/__clang_hip_math.h (pre-included by hipcc) declares __fadd_rz only under OCML_BASIC_ROUNDED_OPERATIONS;
    # its body only forwards its parameters to __ocml_add_rtz_f32, declared without a user macro
    assert rows["__fadd_rz"] == Row(
        cuda="__fadd_rz",
        hip="__ocml_add_rtz_f32",
        kind="device_function",
        api="device",
        hip_status="supported",
        cuda_header="crt/device_functions.h",
        hip_header="__clang_hip_libdevice_declares.h",
        cuda_since="13.0",
        hip_since="5.7",
        source="preincluded-guard",
        note=(
            "HIP declares __fadd_rz (__clang_hip_math.h) only under OCML_BASIC_ROUNDED_OPERATIONS, which hipcc's "
            "pre-included clang headers test before the translated file can define it; its definition only calls "
            "__ocml_add_rtz_f32 with the same arguments, declared unconditionally in __clang_hip_libdevice_declares.h"
        ),
    )
    # declared in both branches of the #if: no guard, same name
    assert (rows["__fadd_rn"].hip, rows["__fadd_rn"].hip_requires, rows["__fadd_rn"].source) == (
        "__fadd_rn",
        "",
        "naming",
    )


@pytest.mark.parametrize(
    ("cuda", "why"),
    [
        ("__frcp_rz", "(calling __ocml_div_rtz_f32) does not just pass its parameters on"),  # __ocml_div(1.0f, x)
        ("__fsub_rz", "(calling __ocml_add_rtz_f32) does not just pass its parameters on"),  # changes an argument
        ("__fmul_rz", "but __ocml_mul_rtz_f32 is not declared unconditionally"),  # callee guarded too
    ],
)
def test_guard_of_preincluded_headers_without_pass_through_is_unsupported(rows, cuda: str, why: str) -> None:
    row = rows[cuda]
    assert (row.hip, row.hip_status, row.hip_header, row.hip_since, row.hip_requires, row.source) == (
        "",
        "unsupported",
        "",
        "",
        "",
        "preincluded-guard",
    ), row
    assert "only under OCML_BASIC_ROUNDED_OPERATIONS" in row.note and why in row.note, row.note


def test_override_transform(rows) -> None:
    row = rows["cudaMemcpyToSymbol"]
    assert row.hip == "hipMemcpyToSymbol"
    assert row.transform == Transform(kind="wrap_arg", arg=0, wrapper="HIP_SYMBOL")
    assert row.note == "fixture: the symbol argument is wrapped"


def test_derived_transforms(rows) -> None:
    # both sides name the parameter `symbol` at index 1 (despite the __dv/__dparm default macros)
    assert rows["cudaMemcpyFromSymbol"].transform == Transform(kind="wrap_arg", arg=1, wrapper="HIP_SYMBOL")
    # the C++ overload cudaEventCreate(event, flags) has no 2-argument hipEventCreate: HIP's WithFlags variant
    assert rows["cudaEventCreate"].transform == Transform(kind="by_arity", arity=((2, "hipEventCreateWithFlags"),))
    assert rows["cudaEventCreate"].hip == "hipEventCreate"
    assert rows["cudaMalloc"].transform is None


def test_headers_and_include_guards(rows) -> None:
    assert rows["cuda_runtime.h"] == Row(
        cuda="cuda_runtime.h",
        hip="hip/hip_runtime.h",
        kind="header",
        api="headers",
        hip_status="supported",
        cuda_header="cuda_runtime.h",
        hip_header="hip/hip_runtime.h",
        hip_since="6.4",
        source="header-naming",
    )
    assert rows["driver_types.h"].hip == "hip/driver_types.h"
    guard = rows["__DRIVER_TYPES_H__"]
    assert (guard.hip, guard.kind, guard.source) == ("HIP_INCLUDE_HIP_DRIVER_TYPES_H", "macro", "include-guard")
    assert rows["__CUDA_RUNTIME_H__"].hip == "HIP_INCLUDE_HIP_HIP_RUNTIME_H"


def test_output_is_deterministic(tmp_path: Path, generated) -> None:
    again = generate(FIXTURE, FIXTURE / "overrides.toml", macros_path=None, signatures=False)
    for api in generated.rows:
        assert render(api, generated.rows[api], {}) == render(api, again.rows[api], {})
    first, second = tmp_path / "a", tmp_path / "b"
    write_tables(first, generated.rows, {"x": "y"})
    write_tables(second, again.rows, {"x": "y"})
    for path in sorted(first.glob("*.json")):
        assert path.read_bytes() == (second / path.name).read_bytes()
    table = load_table_from(first)
    assert len(table) == sum(len(r) for r in generated.rows.values())
    assert json.loads((first / "runtime.json").read_text())["api"] == "runtime"


def test_duplicate_keys_fail(tmp_path: Path, generated) -> None:
    write_tables(tmp_path, generated.rows, {})
    clash = dict(generated.rows)
    clash["extra"] = [generated.rows["runtime"][0]]
    write_tables(tmp_path, clash, {})
    with pytest.raises(DuplicateKeyError):
        load_table_from(tmp_path)
    with pytest.raises(DuplicateKeyError):
        MappingTable.from_rows([Row(cuda="x"), Row(cuda="x", api="driver")])


def test_duplicate_or_unexplained_overrides_fail(tmp_path: Path) -> None:
    dup = tmp_path / "dup.toml"
    dup.write_text('[[row]]\ncuda = "a"\nreason = "r"\n[[row]]\ncuda = "a"\nreason = "r"\n')
    with pytest.raises(ValueError, match="duplicate"):
        load_overrides(dup)
    bare = tmp_path / "bare.toml"
    bare.write_text('[[row]]\ncuda = "a"\nhip = "b"\n')
    with pytest.raises(ValueError, match="reason"):
        load_overrides(bare)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("int f(int a, int b);", [("f", "function")]),
        ('extern "C" { __host__ cudaError_t CUDARTAPI g(void); }', [("g", "function")]),
        (
            "typedef enum E_enum { A = 1, B } E;",
            [("E_enum", "enum"), ("E", "type"), ("A", "enum_constant"), ("B", "enum_constant")],
        ),
        ("typedef void (CUDART_CB *cb_t)(int);", [("cb_t", "type")]),
        ("#define FOO bar\n", [("FOO", "macro")]),
        ("template <typename T> __device__ T h(T x) { return x; }", [("h", "function")]),
        ("struct S { int f(int); };", [("S", "type")]),
        ("namespace detail { int hidden(int); }", [("hidden", "function")]),
        (
            "static __host__ struct cudaExtent make_cudaExtent(size_t w) { struct cudaExtent e; return e; }",
            [("make_cudaExtent", "function")],
        ),
        ("struct __align__(16) float4 { float x; };", [("float4", "type")]),
        (
            "__DECL__ unsigned __ballot_sync(unsigned m, int p) __DEF_IF_HOST\n__DECL__ unsigned __activemask() __DEF_IF_HOST",
            [("__ballot_sync", "function"), ("__activemask", "function")],
        ),
        ("using Alias = Base<int>;", [("Alias", "type")]),
        # a namespace macro is no word of the declaration after it (hipCUB's NullType, CUB's templates)
        (
            "BEGIN_HIPCUB_NAMESPACE\nusing NullType = ::rocprim::empty_type;\nEND_HIPCUB_NAMESPACE",
            [("NullType", "type")],
        ),
        ("CUB_NAMESPACE_BEGIN\ntemplate <class T> using Id = T;\nCUB_NAMESPACE_END", [("Id", "type")]),
        ("enum class SortOrder { Ascending, Descending };", [("SortOrder", "enum")]),
        # an attribute macro between the keyword and the tag (HIP's legacy texture reference template)
        (
            "template <class T> struct __HIP_TEXTURE_ATTRIB texture : public textureReference { };",
            [("texture", "type")],
        ),
        ("enum struct Flag : int { No, Yes };", [("Flag", "enum")]),
        ("_LIBCUDACXX_BEGIN_NAMESPACE_STD\nint f(int);\n_LIBCUDACXX_END_NAMESPACE_STD", [("f", "function")]),
    ],
)
def test_scanner(source: str, expected: list[tuple[str, str]]) -> None:
    assert [(d.name, d.kind) for d in scan_text(source).decls] == expected


def test_scanner_deprecation_and_wrappers() -> None:
    scan = scan_text(
        "__attribute__((deprecated)) int old(void);\ninline static hipError_t hipX(int a) { return conv(cudaX(a)); }\n"
    )
    old, wrapper = scan.decls
    assert old.deprecated and not wrapper.deprecated
    assert wrapper.defined and wrapper.calls == ("conv", "cudaX")


def test_scan_balances_alternative_declaration_heads() -> None:
    text = (
        "#if defined(RDC)\ninline __constant__ double tab[] = {\n#else\nstatic __constant__ double tab[] = {\n#endif\n"
        "  0.0, 1.0 };\nQUALIFIERS unsigned int curand_poisson(State *s, double l) { return 0; }\n"
    )
    names = [d.name for d in scan_text(text).decls]
    assert "tab" in names and "curand_poisson" in names


def test_scan_records_ifdef_guards_templates_and_successors() -> None:
    text = (
        "#ifdef OCML_X\nfloat __fadd_rz(float a, float b) { return a; }\n#else\nfloat __fadd_rn(float a, float b);\n"
        "#endif\n#if defined(__cplusplus)\ntemplate <class T, typename U = int> int f(T *entry, const void *p);\n"
        "#endif\n/** @deprecated use hipHostMalloc() instead */\n"
        'DEPRECATED("use hipHostMalloc instead") int hipMallocHost(void **p, unsigned long n);\n'
    )
    decls = {d.name: d for d in scan_text(text).decls}
    assert decls["__fadd_rz"].guards == ("OCML_X",) and decls["__fadd_rn"].guards == ()
    assert decls["f"].guards == ("__cplusplus",) and decls["f"].template_params == ("T", "U")
    assert decls["f"].param_types == ("T*", "const void*")
    assert decls["hipMallocHost"].deprecated and decls["hipMallocHost"].replacement == "hipHostMalloc"


def test_scan_records_pass_through_callees() -> None:
    text = (
        "float a(float x, float y) { return g(x, y); }\nfloat b(float x) { return g(1.0f, x); }\n"
        "float c(float x, float y) { return g(y, x); }\nvoid d(int n) { g(n); }\nint e(void) { return g(); }\n"
        "int f(int n) { return g(n); h(); }\nfloat k(float x) { return g((float)x); }\nint m() { return g(); }\n"
        "float p(float x);\n"
    )
    decls = {d.name: d.forwards for d in scan_text(text).decls}
    assert decls == {"a": "g", "b": "", "c": "", "d": "g", "e": "g", "f": "", "k": "", "m": "g", "p": ""}


def test_attribute_macro_row(rows) -> None:
    row = rows["CUDARTAPI"]  # `#define CUDARTAPI` (empty) in the fixture's cuda_runtime_api.h
    assert (row.hip, row.hip_status, row.kind, row.transform.kind) == ("", "supported", "macro", "remove")


@pytest.mark.parametrize(
    ("source", "count", "names", "types"),
    [
        ("int f(void);", 0, ("",), ("void",)),
        ("int f();", 0, (), ()),
        ("int f(const char *fmt, ...);", -1, ("fmt", ""), ("const char*", "")),
        ("int f(std::map<int, int> m, float **out = 0);", 2, ("m", "out"), ("", "float**")),
        ("int f(unsigned flags __dv(0));", 1, ("flags",), ("unsigned",)),
    ],
)
def test_scanner_parameters(source: str, count: int, names: tuple[str, ...], types: tuple[str, ...]) -> None:
    (decl,) = scan_text(source).decls
    assert (decl.params, decl.param_names, decl.param_types) == (count, names, types)


def test_compiler_macros_become_rows_checked_against_hipcc(tmp_path: Path) -> None:
    from hipify.tablegen.compiler_macros import CompilerMacroError, compiler_rows, load_macros

    good = tmp_path / "macros.toml"
    good.write_text(
        '[[macro]]\ncuda = "__CUDACC__"\nhip = "__HIPCC__"\nreason = "r"\n'
        '[[macro]]\ncuda = "__CUDA_ARCH__"\nhip = "__HIP_DEVICE_COMPILE__"\ntransform = "defined_only"\nreason = "r"\n'
        '[[macro]]\ncuda = "__CUDACC_VER_MAJOR__"\nhip = ""\nreason = "r"\n'
    )
    rows = {r.cuda: r for r in compiler_rows(load_macros(good), frozenset({"__HIPCC__", "__HIP_DEVICE_COMPILE__"}))}
    assert rows["__CUDACC__"].hip == "__HIPCC__" and rows["__CUDACC__"].api == "compiler"
    assert rows["__CUDA_ARCH__"].transform is not None and rows["__CUDA_ARCH__"].transform.kind == "defined_only"
    assert rows["__CUDACC_VER_MAJOR__"].hip_status == "unsupported"
    with pytest.raises(CompilerMacroError, match="does not predefine __HIPCC__"):
        compiler_rows(load_macros(good), frozenset())
    bad = tmp_path / "bad.toml"
    bad.write_text('[[macro]]\ncuda = "__NVCC__"\nreason = "r"\n')
    with pytest.raises(CompilerMacroError, match="needs cuda, hip and reason"):
        load_macros(bad)


def test_enum_constant_spelled_by_its_enums_naming_scheme(rows) -> None:
    # three constants paired by the backend's switch agree on cudaDevAttr -> hipDeviceAttribute; the fourth, which
    # neither the backend nor a value pairs, is spelled by that scheme; a constant HIP lacks stays unsupported
    assert rows["cudaDevAttrWarpSize"].hip == "hipDeviceAttributeWarpSize"
    row = rows["cudaDevAttrPoolHandleTypes"]
    assert (row.hip, row.source) == ("hipDeviceAttributePoolHandleTypes", "enum-prefix")
    assert rows["cudaDevAttrOnlyCuda"].hip == ""


def test_scanner_default_arguments() -> None:
    decl = scan_text("int f(int a, unsigned int flags __dv(0), void* s = nullptr);").decls[0]
    assert decl.param_types == ("int", "int", "void*") and decl.param_defaults == ("", "0", "nullptr")
    assert scan_text("int g(int a, int b);").decls[0].param_defaults == ()
