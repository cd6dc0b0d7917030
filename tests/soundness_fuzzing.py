"""Generated projects for the soundness check of left-out code (``rewrite/soundness.py``).

Each case is a header of definitions, some of whose bodies call an API HIP lacks inside blocks that ``#if``
branches open differently (``if (c) {`` in one, ``{`` in the other, one shared ``}``), nested at random, with
directive lines that hold braces (``#define BEGIN {``) around; and a translation unit using every definition. The
translation must leave out only inside those bodies: no file fails the check (HPY210), and every definition is
still there, outside every left-out region.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

from hipify.options import Options
from hipify.rewrite.soundness import check_left_out
from hipify.translation.api import translate_project

MISSING_API = "__nv_cvt_e8m0_to_bf16raw"  # a device function HIP lacks, with no compatibility entry
_REGION = re.compile(r"#if defined\(HIPIFY_ENABLE_\w+\)\n.*?#endif  // defined\(HIPIFY_ENABLE_\w+\)", re.DOTALL)


@dataclass(frozen=True)
class Case:
    header: str
    unit: str
    kept: tuple[str, ...]  # definitions that must stay outside every left-out region
    leaving: tuple[str, ...]  # functions whose bodies call the missing API


def _opening(rng: random.Random, depth: int) -> str:
    return rng.choice([f"for (int i{depth} = 0; i{depth} < n; ++i{depth}) {{", f"if (n > {depth}) {{", "{"])


def _block(rng: random.Random, depth: int, indent: str) -> list[str]:
    """Lines of a block whose opening differs per #if branch, holding the missing call (or a deeper block)."""
    lines: list[str] = []
    split = rng.random() < 0.7
    if split:
        lines += [f"#if defined(BRANCH_{depth}_{rng.randrange(100)})", indent + _opening(rng, depth), "#else"]
        lines += [indent + _opening(rng, depth), "#endif"]
    else:
        lines.append(indent + _opening(rng, depth))
    inner = indent + "  "
    if depth < 3 and rng.random() < 0.4:
        lines += _block(rng, depth + 1, inner)
    else:
        if rng.random() < 0.3:
            lines += ["#pragma unroll"]
        lines.append(f"{inner}out[0] = (float){MISSING_API}(in[0]).x;")
    if rng.random() < 0.3:
        lines += [f"{inner}out[1] = 1.0f;"]
    lines.append(indent + "}")
    return lines


def generate(rng: random.Random, size: int = 8) -> Case:
    header = ["#pragma once", "#include <cuda_fp8.h>"]
    kept: list[str] = []
    leaving: list[str] = []
    for k in range(size):
        kind = rng.choice(["plain", "plain", "struct", "leaving", "define"])
        if kind == "plain":
            name = f"plain_{k}"
            kept.append(name)
            header.append(f"__device__ __forceinline__ int {name}(int a) {{ return a + {k}; }}")
        elif kind == "struct":
            name = f"Holder{k}"
            kept.append(name)
            header.append(f"struct {name} {{ int v; }};")
        elif kind == "define":
            header.append(rng.choice([f"#define OPEN_{k} {{", f"#define CLOSE_{k} }}", f"#define VALUE_{k} ({k})"]))
        else:
            name = f"decode_{k}"
            leaving.append(name)
            header.append(f"__device__ void {name}(const unsigned char* in, float* out, int n) {{")
            header += _block(rng, 0, "  ")
            header.append("}")
    calls = [f"x[0] += {n}(1);" for n in kept if n.startswith("plain_")]
    holders = [f"{n} h{i}{{1}}; x[0] += h{i}.v;" for i, n in enumerate(kept) if n.startswith("Holder")]
    unit = "\n".join(
        [
            '#include "gen.cuh"',
            "__global__ void k(int* x) {",
            *("  " + c for c in calls + holders),
            "}",
            "int main() { k<<<1, 1>>>(nullptr); return 0; }",
        ]
    )
    return Case("\n".join(header) + "\n", unit + "\n", tuple(kept), tuple(leaving))


def failures(case: Case, folder: Path, engine: str = "regex") -> list[str]:
    """What is wrong with the translation of ``case`` (written into ``folder``)."""
    (folder / "gen.cuh").write_text(case.header)
    (folder / "main.cu").write_text(case.unit)
    texts = {str(folder / n): (folder / n).read_text() for n in ("gen.cuh", "main.cu")}
    result = translate_project(texts, Options(engine=engine)).results[str(folder / "gen.cuh")]
    problems = [f"{d.code}: {d.message}" for d in result.diagnostics if d.code in ("HPY210", "HPY202", "HPY204")]
    problem = check_left_out(case.header, result.text, result.edits)
    if problem:
        problems.append(problem)
    outside = _REGION.sub("", result.text)
    problems += [f"{name} is left out" for name in case.kept if name not in outside]
    problems += [f"{name} lost its definition" for name in case.leaving if f"void {name}(" not in result.text]
    if case.leaving and "HIPIFY_ENABLE_" not in result.text:
        problems.append("nothing was left out")
    return problems
