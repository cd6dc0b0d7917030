"""``hipify-py validate`` builds a program that has build files of its own with them, translated: where the
build stopped (configure, compile, link) is read from its output, and projects of our own really build
(real make, CMake and hipcc in the ROCm environment; skipped with the reason where there is none)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import rocm_toolchain

from hipify.cli.cli import main
from hipify.validate.build import CMAKE, MAKE, build_system
from hipify.validate.buildlog import COMPILE, CONFIGURE, LINK, first_failure
from hipify.validate.corpus import discover
from hipify.validate.parts import build_parts

# --- reading where a build stopped ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "stage", "message"),
    [
        (
            "hipcc -c main.cu -o main.o\nmain.cu:4:3: error: use of undeclared identifier 'cudaFoo'\n"
            "1 error generated when compiling for gfx90a.\nmake: *** [Makefile:7: main.o] Error 1\n",
            COMPILE,
            "use of undeclared identifier 'cudaFoo'",
        ),
        (
            "hipcc main.o -o app\n/usr/bin/ld: main.o: in function `main':\n"
            "main.cpp:(.text+0x1d): undefined reference to `hipblasCreate'\n"
            "clang: error: linker command failed with exit code 1 (use -v to see invocation)\n",
            LINK,
            "undefined reference to `hipblasCreate'",
        ),
        (
            "ld.lld: error: undefined hidden symbol: twice(float)\n>>> referenced by main.cu\n"
            "clang: error: lld failed\nmake: *** [Makefile:4: split] Error 1\n",
            LINK,
            "undefined hidden symbol: twice(float)",
        ),
        (
            "[ 50%] Linking HIP executable ormqr\n"
            "/usr/bin/x86_64-linux-gnu-ld.bfd: cannot find -lcusolverMg: No such file or directory\n"
            "clang++: error: linker command failed with exit code 1 (use -v to see invocation)\n"
            "gmake[2]: *** [CMakeFiles/ormqr.dir/build.make:106: ormqr] Error 1\ngmake: *** [Makefile:136: all] Error 2\n",
            LINK,
            "cannot find -lcusolverMg: No such file or directory",
        ),
        (
            "/usr/bin/ld: cannot find -lcublas: No such file or directory\n",
            LINK,
            "cannot find -lcublas: No such file or directory",
        ),
        (
            "nvcc -c main.cu\nmake: nvcc: No such file or directory\nmake: *** [Makefile:3: main.o] Error 127\n",
            COMPILE,
            "nvcc: No such file or directory",
        ),
        ("/bin/sh: 1: nvcc: not found\nmake: *** [Makefile:3: main.o] Error 127\n", COMPILE, "nvcc: not found"),
        (
            "clang++: error: unsupported option '-arch=sm_60' for target 'x86_64-pc-linux-gnu'\n",
            COMPILE,
            "unsupported option '-arch=sm_60' for target 'x86_64-pc-linux-gnu'",
        ),
        (
            "make: *** No rule to make target 'kernel.cu', needed by 'kernel.o'.  Stop.\n",
            COMPILE,
            "make: No rule to make target 'kernel.cu', needed by 'kernel.o'.  Stop.",
        ),
        (
            "error: unable to open output file 'bin/a.o': 'No such file or directory'\n"
            "1 error generated when compiling for host.\nmake: *** [Makefile:27: bin/a.o] Error 1\n",
            COMPILE,
            "unable to open output file 'bin/a.o': 'No such file or directory'",
        ),
    ],
)
def test_where_a_build_stopped(output: str, stage: str, message: str) -> None:
    failure = first_failure(output)
    assert (failure.stage, failure.message) == (stage, message)


def test_a_cmake_error_is_a_configure_failure_at_its_line() -> None:
    out = (
        "-- The HIP compiler identification is Clang 21.1.8\n"
        'CMake Error at CMakeLists.txt:9 (find_package):\n  By not providing "Findcutensor.cmake" in CMAKE_MODULE_PATH\n'
        "-- Configuring incomplete, errors occurred!\n"
    )
    failure = first_failure(out, configuring=True)
    assert (failure.stage, failure.file, failure.line) == (CONFIGURE, "CMakeLists.txt", 9)
    assert failure.message.startswith('find_package: By not providing "Findcutensor.cmake"')


def test_a_warning_of_the_linker_is_not_the_cause() -> None:
    out = (
        "/usr/bin/ld: warning: libfoo.so.1, needed by libbar.so, not found\nmain.cu:1:1: error: unknown type name 'x'\n"
    )
    assert first_failure(out).stage == COMPILE


def test_build_systems_are_found(tmp_path: Path) -> None:
    (tmp_path / "m").mkdir()
    (tmp_path / "m/Makefile").write_text("all:\n\ttrue\n")
    (tmp_path / "c").mkdir()
    (tmp_path / "c/CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.21)\nproject(c LANGUAGES CXX)\n")
    (tmp_path / "c/Makefile").write_text("all:\n")  # CMake wins: the Makefile may be CMake's own output
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub/CMakeLists.txt").write_text("add_executable(x x.cpp)\n")  # part of a project: not one
    assert (build_system(tmp_path / "m"), build_system(tmp_path / "c"), build_system(tmp_path / "sub")) == (
        MAKE,
        CMAKE,
        None,
    )
    assert [p.name for p in discover([str(tmp_path)])] == ["c", "m"]


# --- real builds ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rocm() -> None:
    """ROCm's hipcc with what building these projects needs (make, CMake, the host compilers), or skip."""
    rocm_toolchain(*build_parts("make", ()), *build_parts("cmake", ()))


SPLIT_MAIN = """\
#include <cstdio>
#include <cuda_runtime.h>
extern __device__ float twice(float x);
__global__ void k(float* out) { out[threadIdx.x] = twice((float)threadIdx.x); }
int main() {
  float* d; cudaMalloc(&d, 32 * sizeof(float));
  k<<<1, 32>>>(d);
  float h[32]; cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%g\\n", h[31]);
  cudaFree(d);
  return 0;
}
"""
SPLIT_MAKEFILE = """\
NVCC = nvcc
CFLAGS = -O2 -arch=sm_80 {rdc}-Xcompiler -Wall

split: main.o twice.o
\t$(NVCC) $(CFLAGS) main.o twice.o -o split

%.o: %.cu
\t$(NVCC) $(CFLAGS) -c $< -o $@
"""


def _split_project(root: Path, rdc: bool) -> Path:
    root.mkdir(parents=True)
    (root / "main.cu").write_text(SPLIT_MAIN)
    (root / "twice.cu").write_text("__device__ float twice(float x) { return 2.0f * x; }\n")
    (root / "Makefile").write_text(SPLIT_MAKEFILE.format(rdc="-rdc=true " if rdc else ""))
    return root


def _validate(path: Path, tmp_path: Path) -> tuple[int, list[dict[str, object]]]:
    report = tmp_path / "report.json"
    rc = main(["validate", str(path), "--engine", "regex", "--arch", "gfx90a", "-j", "1", "--json", str(report)])
    return rc, json.loads(report.read_text())["builds"]


@pytest.mark.hipcc
def test_a_cuda_makefile_translated_builds_with_relocatable_device_code(rocm: None, tmp_path: Path) -> None:
    """nvcc -rdc=true, -arch and -Xcompiler in a Makefile: translated, make builds and links the program."""
    _, builds = _validate(_split_project(tmp_path / "split", rdc=True), tmp_path)
    assert [(b["system"], b["compiled"], b["linked"]) for b in builds] == [("make", True, True)], builds
    assert builds[0]["executables"] == ["split"]
    # (the per-file compile, with flags validate chooses and no -fgpu-rdc, fails on main.cu: rc is 1 for that)


@pytest.mark.hipcc
def test_a_device_function_in_another_file_without_rdc_is_a_link_error(rocm: None, tmp_path: Path) -> None:
    """What per-file compiles hide: the program does not link, and validate says so (exit 1)."""
    rc, builds = _validate(_split_project(tmp_path / "split", rdc=False), tmp_path)
    assert len(builds) == 1 and not builds[0]["linked"], builds
    assert builds[0]["stage"] == LINK
    assert "twice" in str(builds[0]["first_error"])
    assert rc == 1


CUBLAS_MAIN = """\
#include <cstdio>
#include <cublas_v2.h>
#include <cuda_runtime.h>
int main() {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
  float* x; cudaMalloc(&x, 4 * sizeof(float));
  float result = 0.f;
  cublasSasum(handle, 4, x, 1, &result);
  cublasDestroy(handle);
  cudaFree(x);
  printf("%g\\n", result);
  return 0;
}
"""
CUBLAS_CMAKE = """\
cmake_minimum_required(VERSION 3.18)
project(sasum LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 80)
find_package(CUDAToolkit REQUIRED)
add_executable(sasum main.cu)
target_link_libraries(sasum PRIVATE CUDA::cudart CUDA::cublas)
"""


@pytest.mark.hipcc
def test_a_cuda_cmake_project_with_cublas_translated_configures_builds_and_links(rocm: None, tmp_path: Path) -> None:
    rocm_toolchain(*build_parts("cmake", ["hipblas"]))
    project = tmp_path / "sasum"
    project.mkdir()
    (project / "main.cu").write_text(CUBLAS_MAIN)
    (project / "CMakeLists.txt").write_text(CUBLAS_CMAKE)
    rc, builds = _validate(project, tmp_path)
    assert [(b["system"], b["configured"], b["compiled"], b["linked"]) for b in builds] == [
        ("cmake", True, True, True)
    ], builds
    assert rc == 0


BUILT_BY_THEIR_OWN_FILES = [p.name for p in discover() if p.build_system]


@pytest.mark.hipcc
@pytest.mark.parametrize("program", BUILT_BY_THEIR_OWN_FILES)
def test_corpus_programs_build_with_their_own_translated_build_files(rocm: None, program: str, tmp_path: Path) -> None:
    """The corpus programs with build files of their own (a CUDA-only CMake project, a Makefile with gcc and g++ host
    objects and nvcc found at run time, a fat binary loaded through the driver API, ...): both engines' translations
    configure, compile and link with those build files."""
    from hipify.translation.engines import clang_status

    engines = ["regex", "clang"] if clang_status()[0] else ["regex"]
    report = tmp_path / "report.json"
    argv = ["validate", str(discover()[0].root.parent / program), "--arch", "gfx90a", "-j", "2", "--json", str(report)]
    main([*argv, *[f"--engine={e}" for e in engines]])
    builds = json.loads(report.read_text())["builds"]
    assert sorted((b["engine"], b["configured"] is not False, b["linked"]) for b in builds) == [
        (e, True, True) for e in sorted(engines)
    ], [b["first_error"] for b in builds]
