"""Version and architecture conditions (HPY019): the expression reader, the build they are decided for, and the
decision in both engines."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hipify.lexing.condition_expr import evaluate, names_used_for_value, parse
from hipify.options import Options
from hipify.rewrite.build_target import ASSUMED, CUDA_VERSION
from hipify.translation.api import translate

ROOT = Path(__file__).resolve().parent.parent


def _value(text: str, known: dict[str, int], undefined: frozenset[str] = frozenset()) -> int | None:
    node = parse(text)
    assert node is not None, text

    def value_of(name: str) -> int | None:
        return 0 if name in undefined else known.get(name)

    def defined(name: str) -> bool | None:
        return False if name in undefined else (True if name in known else None)

    return evaluate(node, value_of, defined)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A < 12", 0),
        ("A * 10000 + B * 100 < 120200", 0),
        ("(A >= 11) && (B > 3 || X)", 1),
        ("X && A < 12", 0),  # the known operand decides
        ("X || A >= 13", 1),
        ("X && A >= 13", None),
        ("defined(X) || defined A", 1),
        ("!defined(U) && U == 0", 1),
        ("A > 12 ? 7 : X", 7),
        ("X ? 1 : 1", 1),
        ("0x10 == 16 && 010 == 8 && 12000UL < 13000", 1),
        ("-A + ~0 == -14", 1),
        ("A / 0", None),
    ],
)  # fmt: skip
def test_conditions_evaluate_with_unknown_names(text: str, expected: int | None) -> None:
    assert _value(text, {"A": 13, "B": 5}, frozenset({"U"})) == expected


@pytest.mark.parametrize("text", ["", "A <", "(A", "A B", "defined", "defined(1)", "'a' == 97", "A ? 1"])
def test_what_is_not_an_expression_is_refused(text: str) -> None:
    assert parse(text) is None


def test_spans_and_value_uses() -> None:
    text = " defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 600) "
    node = parse(text)
    assert node is not None and node.kind == "binary" and node.value == "&&"
    left, right = node.children
    assert text[slice(*left.span)] == "defined(__CUDA_ARCH__)"
    assert text[slice(*right.span)] == "(__CUDA_ARCH__ >= 600)"
    assert names_used_for_value(node) == {"__CUDA_ARCH__"}
    assert names_used_for_value(left) == frozenset()


def test_the_build_is_the_cuda_version_the_table_describes() -> None:
    """The CUDA version conditions are decided for is the newest CUDA runtime the table was generated from."""
    sources = json.loads((ROOT / "mapping_tables" / "runtime.json").read_text())["generated_from"]
    versions = [
        tuple(int(p) for p in m.groups())
        for wheel in sources.values()
        if (m := re.match(r"nvidia_cuda_runtime(?:_cu\d+)?-(\d+)\.(\d+)\.", wheel))
    ]
    assert max(versions) == CUDA_VERSION
    assert ASSUMED["CUDART_VERSION"].device == CUDA_VERSION[0] * 1000 + CUDA_VERSION[1] * 10
    assert ASSUMED["__CUDA_ARCH__"].host is None  # the host pass has none, as with nvcc


ENGINES = ["regex", "clang"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("condition", "decided"),
    [
        ("__CUDACC_VER_MAJOR__ < 12", "0"),
        ("__CUDACC_VER_MAJOR__ * 10000 + __CUDACC_VER_MINOR__ * 100 >= 120200", "1"),
        ("CUDART_VERSION < 11000", "0"),
        ("__CUDA_ARCH__ >= 600", "defined(__HIP_DEVICE_COMPILE__)"),
        ("__CUDA_ARCH__ < 800", "!defined(__HIP_DEVICE_COMPILE__)"),
        ("!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 530", "1"),
        ("defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900", "0"),
        ("USE_FAST && (__CUDA_ARCH__ >= 700)", "USE_FAST && defined(__HIP_DEVICE_COMPILE__)"),
        ("defined(USE_BF16) && __CUDACC_VER_MAJOR__ < 12 && __CUDA_ARCH__ < 800", "0"),
    ],
)  # fmt: skip
def test_a_condition_is_decided_in_both_passes(engine: str, condition: str, decided: str) -> None:
    src = f"#if {condition}\n__device__ int chosen() {{ return 1; }}\n#endif\n"
    result = translate(src, path="a.cu", options=Options(engine=engine, use_cache=False))
    assert f"#if {decided}\n__device__ int chosen()" in result.text, result.text
    assert [d.code for d in result.diagnostics if d.code in ("HPY019", "HPY110", "HPY101")] == ["HPY019"]
    again = translate(result.text, path="a.cu", options=Options(engine=engine, use_cache=False))
    assert again.text == result.text


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "body",
    [
        'asm volatile("cp.async.wait_all;\\n" ::);',
        "return __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED);",
        "cudaEmulationMantissaControl c; (void)c;",
        "#error written for another build",
    ],
)
def test_a_branch_hip_cannot_compile_is_decided_for_an_older_build(engine: str, body: str) -> None:
    src = f"__device__ unsigned f(unsigned* p) {{\n#if __CUDA_ARCH__ >= 800 && CUDA_VERSION >= 12080\n  {body}\n#endif\n  return *p;\n}}\n"
    result = translate(src, path="a.cu", options=Options(engine=engine, use_cache=False))
    assert f"#if 0\n  {body}\n#endif\n" in result.text, result.text
    assert "sm_75" in next(d.message for d in result.diagnostics if d.code == "HPY019")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_macro_guarding_ptx_elsewhere_is_left_undefined_in_the_device_pass(engine: str) -> None:
    src = (
        "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800\n#define ASYNC_ON\n#endif\n"
        '__device__ void commit() {\n#ifdef ASYNC_ON\n  asm volatile("cp.async.commit_group;" ::);\n#endif\n}\n'
    )
    result = translate(src, path="a.cu", options=Options(engine=engine, use_cache=False))
    assert "#if !defined(__HIP_DEVICE_COMPILE__)\n#define ASYNC_ON" in result.text, result.text


@pytest.mark.parametrize("engine", ENGINES)
def test_tiers_choose_the_newest_portable_branch_and_values_agree(engine: str) -> None:
    src = (
        "#define CC_TURING 750\n#define CC_AMPERE 800\n"
        "__device__ int tier() {\n"
        "#if __CUDA_ARCH__ >= CC_AMPERE\n"
        '  asm volatile("cp.async.wait_all;" ::);\n  return 3;\n'
        "#elif __CUDA_ARCH__ >= CC_TURING\n  return 2;\n"
        "#else\n  return 1;\n#endif\n}\n"
        "__device__ int arch() { return __CUDA_ARCH__; }\n"
    )
    result = translate(src, path="a.cu", options=Options(engine=engine, use_cache=False))
    assert "#if 0\n" in result.text and "#elif defined(__HIP_DEVICE_COMPILE__)\n  return 2;" in result.text, result.text
    assert "return 750; }" in result.text  # the value of the build whose branches were chosen
    again = translate(result.text, path="a.cu", options=Options(engine=engine, use_cache=False))
    assert again.text == result.text


@pytest.mark.parametrize("engine", ENGINES)
def test_a_macro_body_passing_the_architecture_gets_its_value(engine: str) -> None:
    src = (
        "__device__ void report(int arch);\n"
        "#ifdef __CUDA_ARCH__\n#define NO_DEVICE_CODE report(__CUDA_ARCH__)\n#endif\n"
        "__global__ void k() { NO_DEVICE_CODE; }\n"
    )
    result = translate(src, path="a.cu", options=Options(engine=engine, use_cache=False))
    assert "#define NO_DEVICE_CODE report(800)" in result.text, result.text


@pytest.mark.parametrize("engine", ENGINES)
def test_a_value_used_in_code_becomes_the_builds_number(engine: str) -> None:
    src = (
        '#include <cstdio>\n__global__ void k() {\n#ifdef __CUDA_ARCH__\n  printf("%d\\n", __CUDA_ARCH__);\n#endif\n}\n'
    )
    result = translate(src, path="a.cu", options=Options(engine=engine, use_cache=False))
    assert '#ifdef __HIP_DEVICE_COMPILE__\n  printf("%d\\n", 800);\n' in result.text
    assert "HPY110" not in {d.code for d in result.diagnostics}


@pytest.mark.parametrize("engine", ENGINES)
def test_numbers_the_file_defines_are_compared_with(engine: str) -> None:
    src = (
        "#define CC_PASCAL 600\n#define CC_AMPERE (800)\n#define CC_TWICE 1\n#define CC_TWICE 2\n"
        "#if __CUDA_ARCH__ >= CC_PASCAL\n#define FP16_AVAILABLE\n#endif\n"
        "#if __CUDA_ARCH__ >= CC_TWICE\nint unknown;\n#endif\n"
    )
    result = translate(src, path="a.cuh", options=Options(engine=engine, use_cache=False))
    assert "#if defined(__HIP_DEVICE_COMPILE__)\n#define FP16_AVAILABLE\n" in result.text
    assert "#if __CUDA_ARCH__ >= CC_TWICE\n" in result.text  # defined twice: not a constant


@pytest.mark.parametrize("engine", ENGINES)
def test_a_branch_calling_what_hip_declares_otherwise_is_decided_for_an_older_cuda(engine: str) -> None:
    """cudaMemAdvise took a cudaMemLocation from CUDA 13 on; HIP's takes the older declaration, which the branch
    for older CUDA calls: the condition is decided as CUDA 12 decides it."""
    src = (
        "void advise(float* p, size_t n, cudaMemLocation where) {\n#if CUDART_VERSION >= 13000\n"
        "  cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, where);\n#else\n"
        "  cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, 0);\n#endif\n}\n"
    )
    result = translate(src, path="a.cu", options=Options(engine=engine, use_cache=False))
    assert "#if 0\n  hipMemAdvise(p, n, hipMemAdviseSetReadMostly, where);\n#else\n" in result.text, result.text
    assert "CUDA 12.9" in next(d.message for d in result.diagnostics if d.code == "HPY019")
