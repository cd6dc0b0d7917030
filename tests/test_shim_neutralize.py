"""What a header does in place of the translation's source edits, where a header can: a project's own definition of
a function HIP's headers define (atomicMax(float*, float)) renamed beside HIP's, and the operators of CUDA's vector
types a project defines where HIP's types define them too (helper_math.h) defined once more, preferred over both.
What it cannot do is named at file:line, one finding per declaration, with the edit."""

from __future__ import annotations

from pathlib import Path

import pytest
from shim_builds import hipcc_errors, release_workdirs, write_files

from hipify.options import Options
from hipify.shim import plan_shim, render_header, render_include_dir

HELPER_MATH = """\
#pragma once
#include <cuda_runtime.h>
inline __host__ __device__ float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
inline __host__ __device__ float2 operator/(float2 a, float2 b) { return make_float2(a.x / b.x, a.y / b.y); }
inline __host__ __device__ void operator+=(float4 &a, float4 b) { a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w; }
inline __host__ __device__ float2 operator*(float2 a, float2 b) { return make_float2(a.x * b.x - a.y * b.y, 0.f); }
__device__ float atomicMax(float* address, float val) {
  int* a = (int*)address;
  int old = *a, assumed;
  do {
    assumed = old;
    old = atomicCAS(a, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}
"""
KERNELS = """\
#include "helper_math.h"
__global__ void k(float2* p, float4* q, float* f, int* i, unsigned* u) {
  float2 c = (p[0] + p[1]) / p[1];
  c /= p[2];
  q[0] += q[1];
  p[3] = c / 2.0f;
  atomicMax(f, c.x);
  atomicMax(i, 3);
  atomicMax(u, 3u);
}
int main() {
  float2 x = make_float2(1, 2), y = make_float2(3, 4);
  x = x / y;
  float z[2];
  memcpy(z, &x, sizeof z);  // <string.h>, which CUDA's runtime header brings and ROCm 7's does not
  return (int)z[0];
}
"""


def _project(root: Path) -> dict[str, str]:
    root.mkdir(parents=True, exist_ok=True)
    files = {"helper_math.h": HELPER_MATH, "main.cu": KERNELS}
    for name, text in files.items():
        (root / name).write_text(text)
    return {str(root / name): text for name, text in files.items()}


def test_a_redefinition_and_component_wise_operators_are_stood_for_the_rest_named(tmp_path: Path) -> None:
    plan = plan_shim(_project(tmp_path / "p"))
    assert plan.redefined == ("atomicMax",)
    assert plan.vector_operators == (("+=", "float4"), ("/", "float2"))  # operator+ HIP's types define as templates
    header = render_header(plan, "hip_shim.h")
    assert "#define atomicMax hipify_shim_own_atomicMax" in header
    assert 'float2 operator/(float2 a, float2 b) __attribute__((enable_if(true, "")))' in header
    assert "return make_float2(a.x / b.x, a.y / b.y);" in header
    assert "float4& operator+=(float4& a, float4 b)" in header and "a.w += b.w;" in header
    warnings = [(d.path.rsplit("/", 1)[-1], d.line, d.code) for d in plan.findings if d.severity.value == "warning"]
    # the complex product on float2 computes something else than HIP's: named, to be renamed by hand
    assert warnings == [("helper_math.h", 6, "HPY116")]


def test_an_operator_the_project_also_defines_otherwise_is_left_to_it(tmp_path: Path) -> None:
    texts = _project(tmp_path / "p")
    other = "#include <cuda_runtime.h>\n"
    other += "inline __host__ __device__ float2 operator/(float2 a, float2 b) { return make_float2(a.x / b.y, 0.f); }\n"
    (tmp_path / "p" / "complex.h").write_text(other)
    plan = plan_shim({**texts, str(tmp_path / "p" / "complex.h"): other})
    assert plan.vector_operators == (("+=", "float4"),)  # its uses must keep calling the project's operator/


def test_the_standard_headers_the_translation_adds_are_in_the_header(tmp_path: Path) -> None:
    texts = _project(tmp_path / "p")
    newest = render_include_dir(plan_shim(texts, Options(rocm_version=(7, 2))))["hipify_shim.h"]
    assert "#if defined(__cplusplus)\n#include <cstring>\n#else\n#include <string.h>\n#endif" in newest
    older = render_include_dir(plan_shim(texts, Options(rocm_version=(6, 4))))["hipify_shim.h"]
    assert "<cstring>" not in older  # ROCm 6.4's runtime header includes it


def test_each_declaration_put_behind_a_condition_is_named_where_it_is(tmp_path: Path) -> None:
    code = (
        "#include <cuda.h>\n#include <cuda_runtime.h>\n"
        'const char* name(cudaError_t e) { return "runtime"; }\n'
        'const char* name(CUresult e) { return "driver"; }\n'
        'const char* name(cudaError_t* e) { return "runtime"; }\n'
        'const char* name(CUresult* e) { return "driver"; }\n'
    )
    path = tmp_path / "errors.cu"
    path.write_text(code)
    found = [(d.line, d.subject) for d in plan_shim({str(path): code}).findings if d.code == "HPY122"]
    assert found == [(4, "name"), (6, "name")]  # two overloads HIP's one error type collapses: two places


def test_an_edit_valid_for_nvcc_too_is_named_as_one_for_the_one_source(tmp_path: Path) -> None:
    code = "#include <cuda_runtime.h>\n__global__ void k() {}\nint main() {\n  dim3 g = make_uint3(1, 2, 3);\n"
    code += "  k<<<g, 1>>>();\n  return 0;\n}\n"
    path = tmp_path / "d.cu"
    path.write_text(code)
    found = [d for d in plan_shim({str(path): code}).findings if d.code == "HPY122"]
    assert [(d.line, d.col) for d in found] == [(4, 12)]
    assert "valid CUDA too" in found[0].message and "(the edit: `make_uint3` -> `dim3`)" in found[0].message


@pytest.mark.hipcc
def test_the_unmodified_project_compiles_with_the_include_folder_on_every_release(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """With HIP's headers alone the same sources do not compile (a redefinition of atomicMax, ambiguous operators),
    on either release."""
    failures: list[str] = []
    for tc, work in release_workdirs(tmp_path, request, "neutralize"):
        texts = _project(work / "src")
        write_files(work / "inc", render_include_dir(plan_shim(texts, Options(rocm_version=tc.rocm_version))))
        args = ["-c", "-I", tc.inner_path(str(work / "inc")), tc.inner_path(str(work / "src" / "main.cu"))]
        errors = hipcc_errors(tc, [*args, "-o", "/dev/null"])
        if errors:
            failures.append(f"{tc.describe()}: {errors}")
    assert not failures, "\n".join(failures)


def test_a_precision_switch_is_no_vendor_header(tmp_path: Path) -> None:
    """``#define fmin fminf`` (a single-precision build of a program) maps CUDA names to other functions, not to
    another platform's: the file is the project's source, whose uses count (its <cuda.h> gets a stand-in)."""
    code = "#include <cuda.h>\n#define Real float\n#define fmin fminf\n#define fmax fmaxf\n#define fabs fabsf\n"
    code += "__global__ void k(Real* p) { p[0] = fmin(fabs(p[1]), fmax(p[2], p[3])); }\n"
    code += "int main() { float* p; cudaMalloc(&p, 16); k<<<1, 1>>>(p); return 0; }\n"
    path = tmp_path / "main.cu"
    path.write_text(code)
    plan = plan_shim({str(path): code})
    assert plan.files == 1 and "cuda.h" in {s.cuda for s in plan.stand_ins} and "cudaMalloc" in plan.covered
