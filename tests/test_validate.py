"""hipify-py validate: unit tests of the error->CUDA-line mapping and corpus discovery, and the real thing:
every corpus program translated by both engines must compile with hipcc for gfx90a and gfx1030, with the hipcc
of each ROCm release the table is generated for (6.4 and 7.2), translated for that release.

The compile tests are marked ``hipcc`` (select with ``-m hipcc``, deselect with ``-m "not hipcc"``); they
skip only with a true reason (no hipcc installed, a HIP library not installed for that compiler: a program
validate does not judge, the clang engine unavailable). Known engine/table bugs are listed in tests/validate_known_failures.json with the
reason; they run as non-strict xfail so that a fix shows up as XPASS and the entry can be deleted.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from hipify.model import Edit
from hipify.translation.splice import apply
from hipify.validate.corpus import default_corpus_dir, discover
from hipify.validate.mapping import (
    FileTranslation,
    first_error,
    map_location,
    parse_errors,
    translated_to_original,
)
from hipify.validate.parts import NOT_JUDGED
from hipify.validate.toolchain import Toolchain

CORPUS = default_corpus_dir()
KNOWN = Path(__file__).with_name("validate_known_failures.json")


# --- mapping ------------------------------------------------------------------------------------


def _edits(text: str, pairs: list[tuple[str, str]]) -> tuple[Edit, ...]:
    out = []
    for old, new in pairs:
        start = text.index(old)
        out.append(Edit(start, start + len(old), new, "T"))
    return tuple(out)


@pytest.mark.parametrize(
    "offset, expected",
    [
        (0, 0),  # before any edit
        (4, 4),
        (5, 5),  # start of the first replacement
        (9, 5),  # inside "hipMalloc" -> start of "cudaMalloc"
        (14, 15),  # text after a replacement one shorter
    ],
)
def test_translated_to_original_simple(offset: int, expected: int) -> None:
    original = "int; cudaMalloc(p);"
    edits = _edits(original, [("cudaMalloc", "hipMalloc")])
    assert apply(original, edits).text == "int; hipMalloc(p);"
    assert translated_to_original(edits, offset) == expected


def test_translated_to_original_insertion_and_growth() -> None:
    original = "#include <cuda_runtime.h>\nx = cudaSuccess;\n"
    edits = _edits(original, [("cuda_runtime.h", "hip/hip_runtime.h"), ("cudaSuccess", "hipSuccess")])
    edits += (Edit(0, 0, "#define X 1\n", "INS"),)
    translated = apply(original, edits).text
    # every character of the unchanged text maps back to itself
    for token in ("x = ", ";\n", "#include <"):
        t = translated.index(token)
        assert original[translated_to_original(edits, t) :].startswith(token)
    # the inserted line maps to the insertion point
    assert translated_to_original(edits, 3) == 0


def test_map_location_lines_shift() -> None:
    original = "a\n#include <cuda.h>\nint x = cudaBad(1);\n"
    edits = _edits(original, [("cuda.h", "hip/hip_runtime.h")]) + (Edit(0, 0, "#define A\n#define B\n", "INS"),)
    translated = apply(original, edits).text
    line_no = translated.split("\n").index("int x = cudaBad(1);") + 1
    assert line_no == 5
    assert map_location(original, translated, edits, line_no, 9) == (3, 9)


def test_parse_errors_maps_clang_and_chroot_paths() -> None:
    original = "#include <cuda_runtime.h>\nvoid f() { cudaFoo(); }\n"
    edits = _edits(original, [("cuda_runtime.h", "hip/hip_runtime.h")])
    translated = apply(original, edits).text
    files = {"src/a.cu": FileTranslation("src/a.cu", original, translated, edits)}
    output = (
        "In file included from /tmp/x/src/a.cu:1:\n"
        "/usr/include/hip/hip_runtime.h:10:3: warning: something\n"
        "/tmp/x/src/a.cu:2:12: error: use of undeclared identifier 'cudaFoo'\n"
        "/usr/include/hip/amd_detail/x.h:5:1: error: follow-on\n"
    )
    errors = parse_errors(output, ["/chroot/tmp/x", "/tmp/x"], files)
    assert [e.message for e in errors] == ["use of undeclared identifier 'cudaFoo'", "follow-on"]
    first = first_error(errors)
    assert first is not None
    assert (first.original_file, first.original_line, first.original_col) == ("src/a.cu", 2, 12)
    assert first.original_text == "void f() { cudaFoo(); }"
    assert first.short().startswith("src/a.cu:2:12: use of undeclared")


def test_parse_errors_nvcc_style() -> None:
    files = {"k.cu": FileTranslation("k.cu", "a\nb\n", "a\nb\n", ())}
    errors = parse_errors('/w/k.cu(2): error: identifier "x" is undefined\n', ["/w"], files)
    assert errors and errors[0].original_line == 2


# --- corpus -------------------------------------------------------------------------------------


def test_discover_shipped_corpus() -> None:
    programs = discover()
    names = {p.name for p in programs}
    assert len(programs) >= 26 and "multifile" in names
    multi = next(p for p in programs if p.name == "multifile")
    assert "src/stencil.cuh" in multi.files and "include/common/cuda_check.h" in multi.files
    assert multi.sources == ("src/main.cu", "src/stencil.cu", "src/host_utils.cpp")


def test_discover_single_file(tmp_path: Path) -> None:
    f = tmp_path / "one.cu"
    f.write_text("__global__ void k() {}\n")
    (p,) = discover([str(f)])
    assert p.name == "one" and p.sources == ("one.cu",)


# --- real compile validation --------------------------------------------------------------------


def _known_failures() -> dict[str, str]:
    if not KNOWN.is_file():
        return {}
    return {k: v for k, v in json.loads(KNOWN.read_text()).items() if not k.startswith("_")}


# The ROCm releases the corpus is compiled for: the ones the mapping table is generated for, each translated for it.
RELEASES = ("6.4", "7.2")


def _toolchain_for(rocm: str) -> tuple[Toolchain | None, str]:
    """The hipcc of ``rocm`` (HIPIFY_HIPCC / ROCM_CHROOT_DIR: that one, for its release), or why there is none."""
    from hipify.validate.toolchain import detect

    given = (os.environ.get("HIPIFY_HIPCC") or None, os.environ.get("ROCM_CHROOT_DIR") or None)
    found = detect(*given) if any(given) else detect(rocm=rocm)
    for tc in found:
        release = f"{tc.rocm_version[0]}.{tc.rocm_version[1]}"
        old = tc.rocm_version < (6, 0) and os.environ.get("HIPIFY_VALIDATE_OLD_HIP") and rocm == RELEASES[0]
        if release == rocm or old:
            return tc, ""
    if any(given):
        return None, f"the hipcc given ({', '.join(tc.describe() for tc in found) or 'none'}) is not ROCm {rocm}'s"
    if found or detect():
        return None, f"no ROCm {rocm} hipcc: build it with `hipify-py validate --setup --rocm {rocm}` (as root)"
    return None, (
        f"no hipcc: build the ROCm {rocm} chroot with `hipify-py validate --setup --rocm {rocm}` (as root), "
        "or install ROCm (HIPIFY_VALIDATE_OLD_HIP=1 validates with a ROCm 5.x hipcc)"
    )


@pytest.fixture(scope="session")
def amd_results(request: pytest.FixtureRequest) -> dict[tuple[str, str, str], list]:  # type: ignore[type-arg]
    """Compile (once per session) exactly the program x engine x release triples the selected tests ask for, each
    translated for the release it is compiled with."""
    from hipify.translation.engines import clang_status
    from hipify.validate.runner import validate_all
    from hipify.validate.toolchain import DEFAULT_ARCHS

    wanted = {
        (item.callspec.params["program"], item.callspec.params["engine"], item.callspec.params["rocm"])
        for item in request.session.items
        if item.originalname == "test_translation_compiles_for_amd" and hasattr(item, "callspec")
    }
    engines = ["regex"] + (["clang"] if clang_status()[0] else [])
    grouped: dict[tuple[str, str, str], list] = {}  # type: ignore[type-arg]
    for rocm in RELEASES:
        if not any(w[2] == rocm for w in wanted):
            continue
        tc, why = _toolchain_for(rocm)
        if tc is None:
            for program, engine, _ in (w for w in wanted if w[2] == rocm):
                grouped[(program, engine, rocm)] = [_Skip(why)]
            continue
        for engine in engines:
            programs = [p for p in discover() if (p.name, engine, rocm) in wanted]
            for r in validate_all(programs, [engine], [tc], DEFAULT_ARCHS, jobs=max(2, os.cpu_count() or 2)):
                grouped.setdefault((r.program, r.engine, rocm), []).append(r)
    return grouped


@dataclass(frozen=True)
class _Skip:
    """A release without its compiler: every result of it is skipped, saying why."""

    reason: str
    result: str = "SKIPPED"


PROGRAMS = [p.name for p in discover()]


@pytest.mark.hipcc
@pytest.mark.parametrize("rocm", RELEASES)
@pytest.mark.parametrize("engine", ["regex", "clang"])
@pytest.mark.parametrize("program", PROGRAMS)
def test_translation_compiles_for_amd(program: str, engine: str, rocm: str, amd_results, request) -> None:  # type: ignore[no-untyped-def]
    if engine == "clang":
        from hipify.translation.engines import clang_status

        usable, reason = clang_status()
        if not usable:
            pytest.skip(f"clang engine unavailable: {reason}")
    results = amd_results[(program, engine, rocm)]
    skipped = [r for r in results if r.result in ("SKIPPED", NOT_JUDGED)]  # (not judged: the toolchain lacks a part)
    if skipped:
        pytest.skip(skipped[0].reason)
    known = _known_failures().get(f"{program}/{engine}")
    if known:
        request.applymarker(pytest.mark.xfail(reason=known, strict=False))
    failures = [
        f"{r.arch}: {r.result}: {r.first_error.short() if r.first_error else r.reason}\n"
        f"    CUDA: {r.first_error.original_text if r.first_error else ''}"
        for r in results
        if r.result != "PASS"
    ]
    assert not failures, f"{program} ({engine}, ROCm {rocm}) does not compile for AMD:\n" + "\n".join(failures)


# --- HIP on NVIDIA header patch -----------------------------------------------------------------


@pytest.mark.nvcc
def test_hip_nvidia_headers_patch_compiles(tmp_path: Path) -> None:
    if not shutil.which("nvcc"):
        pytest.skip("nvcc not installed")
    if not Path("/usr/include/hip/nvidia_detail/nvidia_hip_runtime_api.h").is_file():
        pytest.skip("HIP's NVIDIA backend headers not installed (Debian libamdhip64-dev)")
    from hipify.validate.hipnv import patch_headers

    report = patch_headers("/usr/include", tmp_path / "hipnv")
    assert report.ok, report.log[-3000:]
    # the patch never touches the installed headers, and the copy carries only NVIDIA parts
    assert not (tmp_path / "hipnv/include/hip/amd_detail").exists()
    assert "hipify-py validate" not in Path("/usr/include/hip/nvidia_detail/nvidia_hip_runtime_api.h").read_text()


def test_parse_errors_system_header_error_located_at_instantiation_note() -> None:
    text = "line one\nline two\nline three\n"
    files = {"w.cu": FileTranslation("w.cu", text, text, ())}
    output = (
        "/usr/include/hip/amd_detail/amd_warp_sync_functions.h:50:3: error: static assertion failed: mask\n"
        "/usr/include/hip/amd_detail/amd_warp_sync_functions.h:90:10: note: in instantiation of x requested here\n"
        "/t/w.cu:3:7: note: in instantiation of function template specialization requested here\n"
        "/t/w.cu:1:1: error: second\n"
    )
    errors = parse_errors(output, ["/t"], files)
    assert [(e.original_file, e.original_line, e.original_col) for e in errors] == [("w.cu", 3, 7), ("w.cu", 1, 1)]
    assert errors[0].file.startswith("/usr/include/hip")


def test_parse_errors_records_macro_spelling() -> None:
    text = "#define CHECK(x) cudaBad(x)\nint main() {\n  CHECK(1);\n}\n"
    files = {"m.cu": FileTranslation("m.cu", text, text, ())}
    output = (
        "/t/m.cu:3:3: error: use of undeclared identifier 'cudaBad'\n/t/m.cu:1:18: note: expanded from macro 'CHECK'\n"
    )
    (error,) = parse_errors(output, ["/t"], files)
    assert (error.original_line, error.macro_line) == (3, 1)
    assert "spelled in a macro at line 1" in error.short()


def test_parse_errors_macro_argument_is_not_a_macro_spelling() -> None:
    text = "#define CHECK(x) int r = (x)\nint main() {\n  CHECK(cudaBad(1));\n}\n"
    files = {"m.cu": FileTranslation("m.cu", text, text, ())}
    output = (
        "/t/m.cu:3:9: error: use of undeclared identifier 'cudaBad'\n/t/m.cu:1:26: note: expanded from macro 'CHECK'\n"
    )
    (error,) = parse_errors(output, ["/t"], files)
    assert (error.original_line, error.macro_line) == (3, 0)


# --- arch attribution with a stand-in compiler (no hipcc needed) -----------------------------------


def test_compile_reports_each_arch(tmp_path: Path) -> None:
    """clang stops at the first failing offload job; the arch it did not reach is compiled alone."""
    from hipify.validate.corpus import Program
    from hipify.validate.mapping import FileTranslation as FT
    from hipify.validate.runner import Translated, compile_translation
    from hipify.validate.toolchain import Toolchain

    fake = tmp_path / "fakehipcc"
    fake.write_text(
        "#!/bin/sh\n"
        'case "$*" in\n'
        '  *gfx90a*gfx1030*) echo "$SRC:2:1: error: boom" >&2;'
        " echo '1 error generated when compiling for gfx1030.' >&2; exit 1;;\n"
        '  *gfx1030*) echo "$SRC:2:1: error: boom" >&2; exit 1;;\n'
        "  *) exit 0;;\n"
        "esac\n"
    )
    fake.chmod(0o755)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "k.cu").write_text("int a;\nint b;\n")
    program = Program("k", tmp_path, ("k.cu",), ("k.cu",), (".",))
    tr = Translated(program, "regex", tree, {"k.cu": FT("k.cu", "int a;\nint b;\n", "int a;\nint b;\n", ())})
    tc = Toolchain("custom", (str(fake),), "6.4.0", (), env={"SRC": str(tree / "k.cu")})
    results = {r.arch: r for r in compile_translation(tr, tc, ("gfx90a", "gfx1030"))}
    assert results["gfx1030"].result == "FAIL" and results["gfx90a"].result == "PASS"
    first = results["gfx1030"].first_error
    assert first is not None and (first.original_file, first.original_line) == ("k.cu", 2)
