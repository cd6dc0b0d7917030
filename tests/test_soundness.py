"""What the translator leaves out never takes code around it with it (rewrite/soundness.py, lexing/declarations.py).

A function body whose ``#if`` branches each open a block (``if (i < I) {`` in one, ``{`` in the other, one shared
``}``) once made the body's extent run on to a later function's ``}``, and the code left out there swallowed every
definition in between: the header compiled, and a file calling one of them did not.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import hipify.lexing.declarations as declarations
from hipify.lexing.declarations import top_level_declarations
from hipify.lexing.lexer import lex
from hipify.rewrite.soundness import check_left_out
from hipify.translation.api import translate_files

sys.path.insert(0, str(Path(__file__).resolve().parent))
from soundness_fuzzing import failures, generate

PER_BRANCH_BLOCKS = """\
#pragma once
#include <cuda_fp8.h>
template <int J> __device__ void tiles(int * x, int a) {
#if defined(WIDE_TILES)
    for (int i = 0; i < 4; ++i) {
        if (i < J) {
#else
    for (int i = 0; i < 4; ++i) {
        {
#endif
            x[i] = __nv_cvt_e8m0_to_bf16raw(a).x;
        }
    }
}
__device__ int first_after(int y) { return y; }
struct Kept { int v; };
__device__ int second_after(int y) { return y + 1; }
"""

USER = """\
#include "tiles.cuh"
__global__ void k(int* x) { x[0] = first_after(1) + second_after(2); }
int main() { k<<<1, 1>>>(nullptr); return 0; }
"""


def _declared(text: str) -> list[tuple[str, str, str]]:
    lexed = lex(text)
    return [(d.kind, d.name, text[d.end - 1]) for d in top_level_declarations(lexed.masked, lexed.directives)]


def test_a_body_with_a_block_opened_in_each_branch_ends_at_its_own_brace() -> None:
    assert _declared(PER_BRANCH_BLOCKS) == [
        ("function", "tiles", "}"),
        ("function", "first_after", "}"),
        ("type", "Kept", ";"),
        ("function", "second_after", "}"),
    ]


@pytest.mark.parametrize(
    "text, expected",
    [
        # a brace on a directive line is no code of the body
        (
            "#define BEGIN {\nint f() { return 1; }\nint g() { return 2; }\n",
            [("function", "f", "}"), ("function", "g", "}")],
        ),
        # a chain that began before the body: the body's first branch is the one holding its '{'
        (
            "#if A\nvoid f(int a) {\n#else\nvoid f(long a) {\n#endif\n  use(a);\n}\nint g() { return 2; }\n",
            [("function", "f", "}"), ("function", "g", "}")],
        ),
        # nested chains inside a body, each branch balanced
        (
            "void f() {\n#if A\n#if B\n  if (x) {\n#else\n  {\n#endif\n#else\n  {\n#endif\n  }\n}\nint g();\n",
            [("function", "f", "}"), ("prototype", "g", ";")],
        ),
    ],
)
def test_bodies_are_read_through_one_branch_of_each_chain(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert _declared(text) == expected


def _translate(tmp_path: Path) -> tuple[str, list[tuple[str, str]]]:
    (tmp_path / "tiles.cuh").write_text(PER_BRANCH_BLOCKS)
    (tmp_path / "main.cu").write_text(USER)
    texts = {str(tmp_path / n): (tmp_path / n).read_text() for n in ("tiles.cuh", "main.cu")}
    result = translate_files(texts)[str(tmp_path / "tiles.cuh")]
    return result.text, [(d.code, d.message) for d in result.diagnostics]


def test_the_left_out_body_stays_inside_its_function(tmp_path: Path) -> None:
    text, findings = _translate(tmp_path)
    assert [code for code, _ in findings] == ["HPY010"]
    opening = text.index("#if defined(HIPIFY_ENABLE___nv_cvt_e8m0_to_bf16raw)")
    closing = text.index("#endif  // defined(HIPIFY_ENABLE___nv_cvt_e8m0_to_bf16raw)")
    assert opening < closing < text.index("__device__ int first_after")
    assert check_left_out(PER_BRANCH_BLOCKS, text, []) == ""


def test_a_misread_body_fails_the_file_not_the_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The body reader of before (braces of every branch counted): the check sees the region run past its function,
    and the file is left as it is with an error (HPY210) rather than written with three definitions compiled out."""

    def every_branch(masked: str, open_at: int, conditionals: object) -> int:
        depth = 0
        for at in range(open_at, len(masked)):
            depth += {"{": 1, "}": -1}.get(masked[at], 0)
            if depth == 0:
                return at
        return len(masked) - 1

    monkeypatch.setattr(declarations, "_matching_brace", every_branch)
    declarations.clear_kept()  # read again with the misreading reader, not taken from an earlier translation
    text, findings = _translate(tmp_path)
    assert text == PER_BRANCH_BLOCKS
    assert findings[0][0] == "HPY210" and "HIPIFY_ENABLE___nv_cvt_e8m0_to_bf16raw" in findings[0][1]


def test_a_region_closed_by_another_chain_is_found() -> None:
    translated = (
        "__device__ void f() {\n#if defined(HIPIFY_ENABLE___trap_like)\n#if A\n  g();\n"
        '#else\nhipify_unavailable("x");  // hipify-py: HIP lacks it (HPY010)\n#endif  // defined(HIPIFY_ENABLE___trap_like)\n'
        "#endif\n}\n"
    )
    problem = check_left_out("__device__ void f() {\n}\n", translated, [])
    assert (
        problem
        == "line 2: the code left out for HIPIFY_ENABLE___trap_like is closed by another chain's #endif (line 8)"
    )


def test_a_lost_declaration_is_found() -> None:
    original = "int f() { return 1; }\nint g() { return 2; }\n"
    assert "g" in check_left_out(original, "int f() { return 1; }\n", [])
    assert check_left_out(original, original, []) == ""


@pytest.mark.parametrize("engine, cases", [("regex", 40), ("clang", 8)])
def test_generated_projects_leave_out_only_inside_their_bodies(tmp_path: Path, engine: str, cases: int) -> None:
    """bench/fuzz_soundness.py's cases: with the reader of before, about half of them fail."""
    rng = random.Random(20261207)
    for n in range(cases):
        case = generate(rng, rng.randrange(3, 12))
        assert failures(case, tmp_path, engine) == [], f"case {n}:\n{case.header}"
