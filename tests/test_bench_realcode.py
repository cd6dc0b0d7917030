"""bench/realcode.py's readers of build files, its compile-error parsing and its failure classes, on small
cases of our own (the corpora themselves are measured by the bench, not here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from realcode_compile import CompileError, ProgramResult, SourceResult, first_error, shared_digest
from realcode_programs import Program, ggml_programs, hecbench_program, sample_programs
from realcode_report import error_class, failure_groups, shared_quotes, summary


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def test_makefile_sources_continuations_variables_and_include_flags(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "src/app-cuda/Makefile": (
                "ARCH = sm_60\nUTIL = ./util\n"
                "source = main.cu \\\n  kernels.cu ../common/host.cpp  # trailing comment\n"
                "CFLAGS := -std=c++17 -arch=$(ARCH) -I../other-cuda -I$(UTIL) -I/usr/local/include\n"
                "main.o: main.cu\n\t$(CC) $(CFLAGS) -I ${UTIL}/more -c $< -o $@\n"
            ),
            "src/app-cuda/main.cu": "",
        },
    )
    p = hecbench_program(tmp_path, "src/app-cuda", "app", "src/include")
    assert p.sources == ("src/app-cuda/main.cu", "src/app-cuda/kernels.cu", "src/common/host.cpp")
    assert p.include_dirs == ("src/other-cuda", "src/app-cuda/util", "src/app-cuda/util/more", "src/include")


def test_makefile_conditionals_defines_and_object_rules(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "src/b-hip/Makefile": (
                "DEBUG = no\nGPU = yes\nsource = main.cu host.cpp\n"
                "CFLAGS := -std=c++17 -DWARP=64\n"
                "ifeq ($(DEBUG),yes)\n  CFLAGS += -DDEBUG\nelse ifeq ($(GPU), yes)\n  CFLAGS += -DUSE_GPU\n"
                "else\n  CFLAGS += -DCPU_ONLY\nendif\n"
                "ifdef UNSET\n  source += never.cu\nendif\n"
                "host.o : ../b-cuda/host.cpp ../b-cuda/host.h\n\t$(CC) $(CFLAGS) -dc $< -o $@\n"
            ),
            "src/b-hip/src/main.cu": "",  # found by name: the Makefile's rule says src/main.cu
            "src/b-cuda/host.cpp": "",
        },
    )
    p = hecbench_program(tmp_path, "src/b-hip", "b", "src/include")
    assert p.defines == ("WARP=64", "USE_GPU")
    assert p.relocatable  # -dc: separate device compilation
    assert p.sources == ("src/b-hip/src/main.cu", "src/b-cuda/host.cpp")


def test_makefile_without_source_takes_top_level_cu_then_any_cu(tmp_path: Path) -> None:
    _write(tmp_path, {"a-cuda/Makefile": "all:\n", "a-cuda/z.cu": "", "a-cuda/b.cu": "", "a-cuda/sub/c.cu": ""})
    assert hecbench_program(tmp_path, "a-cuda", "a", "inc").sources == ("a-cuda/b.cu", "a-cuda/z.cu")
    _write(tmp_path, {"d-cuda/src/Makefile": "x = 1\n", "d-cuda/src/k/k.cu": ""})
    assert hecbench_program(tmp_path, "d-cuda", "d", "inc").sources == ("d-cuda/src/k/k.cu",)
    _write(tmp_path, {"e-cuda/Makefile": "all:\n", "e-cuda/x.c": ""})
    empty = hecbench_program(tmp_path, "e-cuda", "e", "inc")
    assert empty.sources == () and "no .cu file" in empty.note


def test_cmake_functions_targets_includes_and_languages(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "lib/cmake/example.cmake": (
                "function(add_lib_example GROUP NAME SOURCES)\n"
                "  add_executable(${NAME} ${SOURCES})\n"
                "  target_include_directories(${NAME} PUBLIC ${CUDA_INCLUDE_DIRS})\n"
                "endfunction()\n"
            ),
            "lib/one/CMakeLists.txt": (
                "set(ROUTINE gemm) # a comment with (parentheses)\n"
                "include(../cmake/example.cmake)\n"
                'include_directories("${CMAKE_SOURCE_DIR}/../utils")\n'
                'if(NEWER)\n  add_lib_example(all "lib_${ROUTINE}" ${ROUTINE}_new.cu)\n'
                'else()\n  add_lib_example(all "lib_${ROUTINE}" ${ROUTINE}_old.cu)\nendif()\n'
                "add_executable(c_example)\n"
                "target_sources(c_example PUBLIC ${PROJECT_SOURCE_DIR}/c_example.c ${PROJECT_SOURCE_DIR}/c_example.h)\n"
                "target_include_directories(c_example PRIVATE $ENV{ROOT}/include ../../../outside)\n"
            ),
            "lib/utils/lib_utils.h": "",
        },
    )
    programs = sample_programs(tmp_path, tmp_path / "lib/one/CMakeLists.txt", ("lib/utils",))
    assert [(p.name, p.sources, p.c_sources) for p in programs] == [
        ("lib/one:lib_gemm", ("lib/one/gemm_new.cu",), ()),  # the first definition of a target wins
        ("lib/one:c_example", ("lib/one/c_example.c",), ("lib/one/c_example.c",)),
    ]
    assert programs[0].include_dirs == ("lib/utils",)
    assert programs[0].group == "lib"


CLANG_OUTPUT = """\
In file included from /tmp/w/translated/hecbench/src/a-cuda/main.cu:3:
In file included from /usr/include/hip/hip_runtime.h:62:
/usr/include/hip/amd_detail/amd_hip_bf16.h:80:5: error: use of undeclared identifier '__shfl_xor_sync'
   80 |     __shfl_xor_sync(m, v, 1);
/tmp/w/translated/hecbench/src/a-cuda/main.cu:9:3: error: use of undeclared identifier 'umin'
2 errors generated when compiling for gfx90a.
"""


def testfirst_error_in_a_system_header_is_traced_into_the_tree(tmp_path: Path) -> None:
    root = tmp_path / "translated/hecbench"
    _write(root, {"src/a-cuda/main.cu": "\n" * 8 + "  umin(a, b);\n"})
    error = first_error(CLANG_OUTPUT, "/tmp/w/translated/hecbench", root)
    assert error == CompileError(
        "use of undeclared identifier '__shfl_xor_sync'",
        "/usr/include/hip/amd_detail/amd_hip_bf16.h",
        80,
        5,
        "",
        "src/a-cuda/main.cu:3",
    )
    second = first_error(CLANG_OUTPUT.split("\n", 4)[4], "/tmp/w/translated/hecbench", root)
    assert (second.where(), second.text) == ("src/a-cuda/main.cu:9", "umin(a, b);")
    assert first_error("clang++: error: no such file or directory: 'x.cu'\n", "/w", root).message == (
        "no such file or directory: 'x.cu'"
    )


def _failed(name: str, message: str, file: str = "src/x.cu", kind: str = "translated") -> ProgramResult:
    error = CompileError(message, file, 3, 1)
    return ProgramResult("hecbench", name, kind, False, (SourceResult("src/x.cu", False, 1.0, error),))


@pytest.mark.parametrize(
    ("message", "file", "expected"),
    [
        ("use of undeclared identifier 'umin'", "src/a.cu", "use of undeclared identifier 'umin'"),
        ("use of undeclared identifier 'my_helper'", "src/a.cu", "use of undeclared identifier '…'"),
        (
            "too many arguments to function call, expected 3, have 4",
            "src/a.cu",
            "too many arguments to function call, expected N, have N",
        ),
        ("unknown type name 'umin'; did you mean 'min'?", "src/a.cu", "unknown type name 'umin'"),
        ("use of undeclared identifier 'umin'", "/usr/include/hip/x.h", "x.h: use of undeclared identifier 'umin'"),
    ],
)
def test_error_class_masks_what_varies(message: str, file: str, expected: str) -> None:
    assert error_class(CompileError(message, file, 1, 1), {"umin"}) == expected


def test_groups_and_summary() -> None:
    results = [
        _failed("a", "use of undeclared identifier 'umin'"),
        _failed("b", "use of undeclared identifier 'umin'"),
        _failed("c", "use of undeclared identifier 'c_only'"),
        ProgramResult("hecbench", "a", "ported", True, ()),
        ProgramResult("hecbench", "b", "ported", True, ()),
        _failed("c", "'mpi.h' file not found", kind="ported"),
        ProgramResult("hecbench", "d", "translated", True, ()),
        ProgramResult("hecbench", "d", "ported", True, ()),
    ]
    assert shared_quotes(results) == {"umin", "mpi.h"}  # in two programs; a header name
    groups = failure_groups(results, "translated", {"a", "b", "d"})
    assert [(g.key, len(g.results), g.where_ported_ok) for g in groups] == [
        ("use of undeclared identifier 'umin'", 2, 2),
        ("use of undeclared identifier '…'", 1, 0),
    ]
    (row,) = summary(results, "hecbench")
    assert (row.programs, row.translated_ok, row.ported, row.ported_ok, row.translated_ok_where_ported_ok) == (
        4,
        1,
        4,
        3,
        1,
    )
    assert row.share_of_ceiling == pytest.approx(1 / 3)


def test_shared_digest_covers_files_outside_program_folders(tmp_path: Path) -> None:
    _write(tmp_path, {"src/a-cuda/main.cu": "x", "src/include/common.h": "1", "hipify_compat.h": "v1"})
    programs = [Program("hecbench", "a", "src/a-cuda", ("src/a-cuda/main.cu",), ("src/include",))]
    before = shared_digest(tmp_path, programs)
    (tmp_path / "src/a-cuda/main.cu").write_text("changed inside the folder: the folder hash covers it")
    assert shared_digest(tmp_path, programs) == before
    (tmp_path / "hipify_compat.h").write_text("v2")
    assert shared_digest(tmp_path, programs) != before


def test_ggml_programs_one_per_top_level_source_and_its_hip_build(tmp_path: Path) -> None:
    backend = tmp_path / "ggml" / "src" / "ggml-cuda"
    (backend / "vendors").mkdir(parents=True)
    for name in ("acc.cu", "mmq.cu", "common.cuh", "vendors/hip.h"):
        (backend / name).write_text("// test\n")
    translated, ported = ggml_programs(tmp_path)
    assert [p.name for p in translated] == ["ggml/acc", "ggml/mmq"] == [p.name for p in ported]
    assert translated[0].sources == ("ggml/src/ggml-cuda/acc.cu",)
    assert translated[0].include_dirs == ("ggml/src/ggml-cuda", "ggml/src", "ggml/include")
    assert translated[0].defines == () and ported[0].defines == ("GGML_USE_HIP",)
