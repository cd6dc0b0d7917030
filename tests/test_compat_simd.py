"""CUDA's SIMD-in-a-word functions (``__vadd4``, ``__vcmpne2``, ``__vsads4``, ...) as the compatibility header
writes them, run on the host and compared with a reference written here from CUDA's Math API documentation
("SIMD Intrinsics") and PTX's definitions of the video instructions (vavrg's rounding), over edge values: the
lane types' extremes (saturation), lanes whose sign bit is set (signedness), odd sums of either sign (the
rounding of averages).

The entries are plain integer arithmetic, so the host compiler runs their code as written (``__device__`` defined
away); the hipcc tests of tests/test_compat.py compile the same code for wave-64 and wave-32 AMD targets, and the
corpus program ``simd_in_a_word`` runs it on a GPU."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from hipify.compat import load_catalog

ENTRIES = ("simd_lanes", "simd_min_max", "simd_arithmetic", "simd_compare")
CUDA_HEADER = Path("/usr/local/cuda/include/crt/device_functions.h")
SIMD_NAME = re.compile(r"\b(__v[a-z]+[24])\s*\(")

Lanes = list[int]


def _split(word: int, bits: int, signed: bool) -> Lanes:
    out = []
    for shift in range(0, 32, bits):
        raw = (word >> shift) & ((1 << bits) - 1)
        out.append(raw - (1 << bits) if signed and raw >> (bits - 1) else raw)
    return out


def _join(values: Lanes, bits: int) -> int:
    return sum((v & ((1 << bits) - 1)) << (i * bits) for i, v in enumerate(values))


def _clamp(value: int, bits: int, signed: bool) -> int:
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    return min(max(value, low), high)


def _rounded_average(total: int) -> int:
    """PTX vavrg: (a + b + 1) >> 1 where the sum is non-negative, (a + b) >> 1 where negative (>>: floor)."""
    return (total + 1) >> 1 if total >= 0 else total >> 1


# name -> (arity, lane bits, signed lanes, lane result). Lane results are cut to the lane's bits afterwards.
Op = Callable[[int, int], int]
REFERENCE: dict[str, tuple[int, bool, Op]] = {}


def _define(stem: str, signed: bool, op: Callable[[int, int, int], int]) -> None:
    for suffix, bits in (("2", 16), ("4", 8)):
        REFERENCE[stem + suffix] = (bits, signed, lambda x, y, b=bits: op(x, y, b))


_define("__vabs", True, lambda x, _y, _b: abs(x))
_define("__vabsss", True, lambda x, _y, b: _clamp(abs(x), b, True))
_define("__vneg", True, lambda x, _y, _b: -x)
_define("__vnegss", True, lambda x, _y, b: _clamp(-x, b, True))
_define("__vadd", False, lambda x, y, _b: x + y)
_define("__vaddss", True, lambda x, y, b: _clamp(x + y, b, True))
_define("__vaddus", False, lambda x, y, b: _clamp(x + y, b, False))
_define("__vsub", False, lambda x, y, _b: x - y)
_define("__vsubss", True, lambda x, y, b: _clamp(x - y, b, True))
_define("__vsubus", False, lambda x, y, b: _clamp(x - y, b, False))
_define("__vavgs", True, lambda x, y, _b: _rounded_average(x + y))
_define("__vavgu", False, lambda x, y, _b: (x + y + 1) >> 1)
_define("__vhaddu", False, lambda x, y, _b: (x + y) >> 1)
_define("__vabsdiffs", True, lambda x, y, _b: abs(x - y))
_define("__vabsdiffu", False, lambda x, y, _b: abs(x - y))
_define("__vmaxs", True, lambda x, y, _b: max(x, y))
_define("__vmaxu", False, lambda x, y, _b: max(x, y))
_define("__vmins", True, lambda x, y, _b: min(x, y))
_define("__vminu", False, lambda x, y, _b: min(x, y))
_COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    "eq": lambda x, y: x == y,
    "ne": lambda x, y: x != y,
    "ge": lambda x, y: x >= y,
    "gt": lambda x, y: x > y,
    "le": lambda x, y: x <= y,
    "lt": lambda x, y: x < y,
}
for _cmp, _holds in _COMPARISONS.items():
    for _sign in ("", "s", "u") if _cmp in ("eq", "ne") else ("s", "u"):
        if _cmp in ("eq", "ne") and _sign:
            continue
        _signed = _sign == "s"
        _define(f"__vcmp{_cmp}{_sign}", _signed, lambda x, y, _b, h=_holds: -1 if h(x, y) else 0)
        _define(f"__vset{_cmp}{_sign}", _signed, lambda x, y, _b, h=_holds: 1 if h(x, y) else 0)

UNARY = {n for n in REFERENCE if re.fullmatch(r"__v(abs|abss|absss|neg|negss)[24]", n)}
# Sums of absolute differences: one 32-bit number, not lanes.
SUMS: dict[str, tuple[int, bool]] = {"__vsads2": (16, True), "__vsads4": (8, True)}
SUMS |= {"__vsadu2": (16, False), "__vsadu4": (8, False)}


def reference(name: str, a: int, b: int) -> int:
    if name in SUMS:
        bits, signed = SUMS[name]
        return (
            sum(abs(x - y) for x, y in zip(_split(a, bits, signed), _split(b, bits, signed), strict=True)) & 0xFFFFFFFF
        )
    bits, signed, op = REFERENCE[name]
    xs, ys = _split(a, bits, signed), _split(b, bits, signed)
    return _join([op(x, y) for x, y in zip(xs, ys, strict=True)], bits)


def _inputs() -> list[int]:
    """Words whose lane 0 (and lane 3 of the byte words) takes every edge value of its type; with every pair of
    them as (a, b), each pair of edge values meets in one lane."""
    halves = [0, 1, 2, 0x3FFF, 0x4000, 0x7FFE, 0x7FFF, 0x8000, 0x8001, 0xC000, 0xFFFE, 0xFFFF]
    bytes_ = [0, 1, 2, 0x3F, 0x40, 0x7E, 0x7F, 0x80, 0x81, 0xC0, 0xFE, 0xFF]
    n = len(halves)
    words = [halves[i] | halves[(i * 7 + 5) % n] << 16 for i in range(n)]
    words += [
        bytes_[i] | bytes_[(i + 3) % n] << 8 | bytes_[(i * 5 + 1) % n] << 16 | bytes_[n - 1 - i] << 24 for i in range(n)
    ]
    state = 0x2545F491
    for _ in range(12):  # a few arbitrary words
        state = (state * 1103515245 + 12345) & 0xFFFFFFFF
        words.append(state)
    return words


def _driver(code: str, names: list[str], words: list[int]) -> str:
    calls = "\n".join(
        f'  std::printf("{n}");\n  for (unsigned a : w) for (unsigned b : w) std::printf(" %x", '
        f'{f"{n}(a) + 0u * b" if n in UNARY else f"{n}(a, b)"});\n  std::printf("\\n");'
        for n in names
    )
    listed = ", ".join(f"0x{w:x}u" for w in words)
    return (
        "#include <cstdio>\n#define __device__\n"
        f"{code}\nint main() {{\n  const unsigned w[] = {{{listed}}};\n{calls}\n  return 0;\n}}\n"
    )


@pytest.fixture(scope="module")
def simd_code() -> tuple[str, list[str]]:
    catalog = load_catalog()
    chosen = catalog.closure([catalog.by_entry_name[n] for n in ENTRIES])
    names = sorted(n for e in chosen for n in e.provides)
    return "\n".join(e.code for e in chosen), names


def test_the_reference_covers_exactly_the_provided_functions(simd_code: tuple[str, list[str]]) -> None:
    assert sorted({*REFERENCE, *SUMS}) == simd_code[1]
    assert len(simd_code[1]) == 82


def test_every_simd_function_cuda_declares_is_provided(simd_code: tuple[str, list[str]]) -> None:
    if not CUDA_HEADER.is_file():
        pytest.skip(f"no CUDA toolkit header {CUDA_HEADER}")
    declared = set(SIMD_NAME.findall(CUDA_HEADER.read_text(encoding="utf-8", errors="replace")))
    assert sorted(declared) == simd_code[1]


def test_the_reference_follows_the_documented_edge_cases() -> None:
    # abs without saturation wraps (|-128| is 0x80), with it saturates; averages round halves away from zero
    assert reference("__vabs4", 0x80, 0) == 0x80 and reference("__vabsss4", 0x80, 0) == 0x7F
    assert reference("__vavgs2", 0xFFFF, 0xFFFE) == 0xFFFE  # (-1 + -2) / 2 = -1.5 -> -2
    assert reference("__vavgs2", 1, 2) == 2 and reference("__vavgu4", 1, 2) == 2 and reference("__vhaddu4", 1, 2) == 1
    assert reference("__vsubus4", 0x01, 0x02) == 0 and reference("__vsubss4", 0x80, 0x01) == 0x80
    assert reference("__vcmpne4", 0x01020304, 0x01020305) == 0xFF and reference("__vsetne4", 0x0, 0x100) == 0x100
    assert reference("__vsads4", 0x80, 0x7F) == 255 and reference("__vsadu4", 0xFF00FF00, 0) == 510


def test_host_run_of_the_compat_code_matches_the_reference(simd_code: tuple[str, list[str]], tmp_path: Path) -> None:
    compiler = shutil.which("g++") or shutil.which("clang++")
    if compiler is None:
        pytest.skip("no host C++ compiler (g++ or clang++)")
    code, names = simd_code
    words = _inputs()
    (tmp_path / "simd.cpp").write_text(_driver(code, names, words), encoding="utf-8")
    build = subprocess.run(
        [compiler, "-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-o", "simd", "simd.cpp"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr[-4000:]
    run = subprocess.run([str(tmp_path / "simd")], capture_output=True, text=True, check=True)
    pairs = [(a, b) for a in words for b in words]
    wrong: list[str] = []
    for line in run.stdout.splitlines():
        name, *values = line.split()
        assert len(values) == len(pairs), name
        for (a, b), got in zip(pairs, values, strict=True):
            want = reference(name, a, b)
            if int(got, 16) != want:
                wrong.append(f"{name}(0x{a:08x}, 0x{b:08x}) = 0x{int(got, 16):08x}, CUDA: 0x{want:08x}")
    assert sorted({line.split()[0] for line in run.stdout.splitlines()}) == names
    assert wrong == [], "\n".join(wrong[:20])
