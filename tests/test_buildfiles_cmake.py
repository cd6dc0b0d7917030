"""CMake translation: each construct rewritten (tables), what has no translation reported, idempotence, files
without CUDA untouched, and projects of our own that really configure and build with CMake's HIP language in
the ROCm environment after translation."""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from conftest import rocm_toolchain

from hipify.buildfiles import BuildContext
from hipify.buildfiles.cmake import translate
from hipify.translation.splice import apply
from hipify.validate.parts import CMAKE
from hipify.validate.toolchain import chroot_command

CONTEXT = BuildContext()


def _translated(text: str, context: BuildContext = CONTEXT) -> str:
    result = translate(text, "CMakeLists.txt", context)
    fixed = apply(text, result.edits)
    assert not fixed.rejected, fixed.diagnostics
    return fixed.text


def _codes(text: str, context: BuildContext = CONTEXT) -> list[tuple[str, int, str]]:
    return [(d.code, d.line, d.message) for d in translate(text, "CMakeLists.txt", context).diagnostics]


@pytest.mark.parametrize(
    "before, after",
    [
        ("project(p LANGUAGES CXX CUDA)\n", "project(p LANGUAGES CXX HIP)\n"),
        ("project(p CUDA CXX)\n", "project(p HIP CXX)\n"),
        (
            'project(p VERSION 1.0 DESCRIPTION "CUDA" LANGUAGES C CUDA)\n',
            'project(p VERSION 1.0 DESCRIPTION "CUDA" LANGUAGES C HIP)\n',
        ),
        ("enable_language(CUDA)\n", "enable_language(HIP)\n"),
        ("check_language(CUDA)\nif(CMAKE_CUDA_COMPILER)\n", "check_language(HIP)\nif(CMAKE_HIP_COMPILER)\n"),
        ("set(CMAKE_CUDA_STANDARD 17)\n", "set(CMAKE_HIP_STANDARD 17)\n"),
        ("set(CMAKE_CUDA_ARCHITECTURES 70 80-real sm_86)\n", "set(CMAKE_HIP_ARCHITECTURES gfx90a)\n"),
        (
            'set(CMAKE_CUDA_ARCHITECTURES "70;80" CACHE STRING "")\n',
            'set(CMAKE_HIP_ARCHITECTURES "gfx90a" CACHE STRING "")\n',
        ),
        (
            'set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -arch=sm_70 --expt-relaxed-constexpr -Xcompiler -Wall")\n',
            'set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} --offload-arch=gfx90a -Wall")\n',
        ),
        (
            'string(APPEND CMAKE_CUDA_FLAGS " --use_fast_math")\n',
            'string(APPEND CMAKE_HIP_FLAGS " -fgpu-flush-denormals-to-zero -fno-hip-fp32-correctly-rounded-divide-sqrt -fapprox-func")\n',
        ),
        ("list(APPEND CUDA_NVCC_FLAGS -O3 -Xcompiler -fPIC)\n", "list(APPEND CUDA_NVCC_FLAGS -O3 -fPIC)\n"),
        ("set(CMAKE_CUDA_SEPARABLE_COMPILATION ON)\n", 'string(APPEND CMAKE_HIP_FLAGS " -fgpu-rdc")\n'),
        (
            "set_target_properties(t PROPERTIES CUDA_ARCHITECTURES 75 CUDA_STANDARD 14 POSITION_INDEPENDENT_CODE ON)\n",
            "set_target_properties(t PROPERTIES HIP_ARCHITECTURES gfx90a HIP_STANDARD 14 POSITION_INDEPENDENT_CODE ON)\n",
        ),
        (
            "set_property(TARGET t PROPERTY CUDA_ARCHITECTURES OFF)\n",
            "set_property(TARGET t PROPERTY HIP_ARCHITECTURES gfx90a)\n",
        ),
        (
            "set_target_properties(t PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n",
            "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)\ntarget_link_options(t PRIVATE -fgpu-rdc)\n",
        ),
        (
            "set_target_properties(t PROPERTIES CUDA_SEPARABLE_COMPILATION ON LINKER_LANGUAGE CUDA)\n",
            "set_target_properties(t PROPERTIES LINKER_LANGUAGE HIP)\n"
            "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)\ntarget_link_options(t PRIVATE -fgpu-rdc)\n",
        ),
        (
            "set_source_files_properties(a.cpp PROPERTIES LANGUAGE CUDA)\n",
            "set_source_files_properties(a.cpp PROPERTIES LANGUAGE HIP)\n",
        ),
        (
            "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math;-lineinfo>)\n",
            "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-flush-denormals-to-zero;-fno-hip-fp32-correctly-rounded-divide-sqrt;-fapprox-func>)\n",
        ),
        (
            "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-rdc=true>)\n",
            "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)\ntarget_link_options(t PRIVATE -fgpu-rdc)\n",
        ),
        ("target_compile_features(t PUBLIC cuda_std_17)\n", "target_compile_features(t PUBLIC hip_std_17)\n"),
        (
            "find_package(CUDAToolkit REQUIRED)\ntarget_link_libraries(t PRIVATE CUDA::cudart CUDA::cublas)\n",
            "find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\ntarget_link_libraries(t PRIVATE hip::host roc::hipblas)\n",
        ),
        (
            "project(p LANGUAGES CUDA)\ntarget_link_libraries(t PUBLIC cudart cufft)\n",
            "project(p LANGUAGES CXX HIP)\nfind_package(hip REQUIRED)\nfind_package(hipfft REQUIRED)\ntarget_link_libraries(t PUBLIC hip::host hip::hipfft)\n",
        ),
        (
            "function(f t)\n  target_link_libraries(${t} PUBLIC curand)\nendfunction()\n",
            "function(f t)\n  find_package(hiprand REQUIRED)\n  target_link_libraries(${t} PUBLIC hip::hiprand)\nendfunction()\n",
        ),
        (
            "project(p CXX)\nfind_package(CUDA)\ntarget_link_libraries(t ${CUDA_LIBRARIES} ${CUDA_CUBLAS_LIBRARIES})\n",
            "project(p CXX)\nenable_language(HIP)\nfind_package(hip)\nfind_package(hipblas)\ntarget_link_libraries(t hip::host roc::hipblas)\n",
        ),
        (
            "include_directories(${CUDAToolkit_INCLUDE_DIRS})\n",
            "find_package(hip REQUIRED)\ninclude_directories(${hip_INCLUDE_DIRS})\n",
        ),
        (
            "add_executable(t main.cu util.cpp)\n",
            "add_executable(t main.cu util.cpp)\nset_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)\n",
        ),
        (
            "file(GLOB K src/*.cu)\nadd_library(k ${K})\n",
            "file(GLOB K src/*.cu)\nset_source_files_properties(${K} PROPERTIES LANGUAGE HIP)\nadd_library(k ${K})\n",
        ),
        (
            "cuda_add_executable(t main.cu OPTIONS -DX=1 --use_fast_math)\n",
            "find_package(hip REQUIRED)\nadd_executable(t main.cu)\ntarget_link_libraries(t hip::host)\n"
            "target_compile_options(t PRIVATE -DX=1 -fgpu-flush-denormals-to-zero;-fno-hip-fp32-correctly-rounded-divide-sqrt;-fapprox-func)\n"
            "set_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)\n",
        ),
        (
            "if(WIN32)\n  target_link_libraries(t cufft)\nelse()\n  target_link_libraries(t cufft)\nendif()\n",
            "if(WIN32)\n  find_package(hipfft REQUIRED)\n  target_link_libraries(t hip::hipfft)\nelse()\n"
            "  find_package(hipfft REQUIRED)\n  target_link_libraries(t hip::hipfft)\nendif()\n",
        ),
        (
            "set(SRCS a.cu) # the kernels\nadd_executable(t ${SRCS})\n",
            "set(SRCS a.cu) # the kernels\nset_source_files_properties(a.cu PROPERTIES LANGUAGE HIP)\nadd_executable(t ${SRCS})\n",
        ),
        (
            "cuda_add_executable(t a.cu)\ntarget_link_libraries(t PRIVATE m)\n",
            "find_package(hip REQUIRED)\nadd_executable(t a.cu)\ntarget_link_libraries(t PRIVATE hip::host)\n"
            "set_source_files_properties(a.cu PROPERTIES LANGUAGE HIP)\ntarget_link_libraries(t PRIVATE m)\n",
        ),
        (
            "if(CUDAToolkit_FOUND)\n  target_link_libraries(t -lcublas)\nendif()\n",
            "if(hip_FOUND)\n  target_link_libraries(t -lhipblas)\nendif()\n",
        ),
        (
            'add_compile_options("$<$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>:-G>")\n',
            'add_compile_options("$<$<COMPILE_LANG_AND_ID:HIP,NVIDIA>:-g>")\n',
        ),
    ],
)
def test_construct_is_translated_and_stays_translated(before: str, after: str) -> None:
    assert _translated(before) == after
    assert _translated(after) == after


def test_sources_renamed_by_the_run_follow_and_need_no_marking() -> None:
    context = BuildContext(renamed=(("main.cu", "main.hip"), ("k.cuh", "k.hip.h")))
    text = "add_executable(t src/main.cu other.cu k.cuh)\n"
    after = _translated(text, context)
    assert after == (
        "add_executable(t src/main.hip other.cu k.hip.h)\nset_source_files_properties(other.cu PROPERTIES LANGUAGE HIP)\n"
    )
    assert _translated(after, context) == after


def test_architectures_from_a_variable_are_replaced_and_noted() -> None:
    text = "set(CMAKE_CUDA_ARCHITECTURES ${MY_ARCHS})\n"
    assert _translated(text) == "set(CMAKE_HIP_ARCHITECTURES gfx90a)\n"
    notes = [m for c, _, m in _codes(text) if c == "HPY118"]
    assert notes == ["CUDA architectures ${MY_ARCHS} replaced by the AMD targets gfx90a"]


def test_offload_arch_comes_from_the_context() -> None:
    context = BuildContext(offload_arch=("gfx90a", "gfx1100"))
    assert (
        _translated("set(CMAKE_CUDA_ARCHITECTURES 80)\n", context) == 'set(CMAKE_HIP_ARCHITECTURES "gfx90a;gfx1100")\n'
    )


def test_comments_bracket_arguments_and_unrelated_strings_are_left_alone() -> None:
    text = (
        "# set(CMAKE_CUDA_FLAGS -arch=sm_70) CUDA::cublas\n"
        "#[[ enable_language(CUDA) ]]\n"
        'message(STATUS "CUDA is not needed -arch=sm_70")\n'
        "file(WRITE x.txt [[set(CMAKE_CUDA_STANDARD 17)]])\n"
        "project(p LANGUAGES CUDA) # CUDA\n"
    )
    assert _translated(text) == text.replace("LANGUAGES CUDA)", "LANGUAGES CXX HIP)")


@pytest.mark.parametrize(
    "text",
    [
        "cmake_minimum_required(VERSION 3.20)\nproject(p CXX)\nadd_executable(p main.cpp)\n",
        "# a file about nothing\n",
        "",
        'message("not closed\n',
        "set(X [[unterminated\n",
    ],
)
def test_file_without_cuda_is_byte_identical(text: str) -> None:
    result = translate(text, "CMakeLists.txt", CONTEXT)
    assert result.edits == ()


def test_bad_text_is_a_diagnostic_not_an_exception() -> None:
    text = 'project(p CUDA)\nset(CMAKE_CUDA_FLAGS "open\n'
    result = translate(text, "CMakeLists.txt", CONTEXT)
    assert any(d.code == "HPY118" and "not understood" in d.message for d in result.diagnostics)
    assert apply(text, result.edits).text.startswith("project(p CXX HIP)")


@pytest.mark.parametrize(
    "text, word",
    [
        ("add_custom_command(OUTPUT k.sass COMMAND cuobjdump -sass k.o)\n", "cuobjdump"),
        ("add_custom_command(OUTPUT k COMMAND ${CMAKE_CUDA_COMPILER} --run k.cu -o k)\n", "--run"),
        ("add_custom_target(ii COMMAND nvcc -lto-ir k.cu)\n", "-lto-ir"),
        ("execute_process(COMMAND nvidia-smi --query-gpu=compute_cap --format=csv)\n", "nvidia-smi"),
        ("add_custom_command(OUTPUT k.o COMMAND ptxas k.ptx -o k.o)\n", "ptxas"),
        ("find_program(SMI nvidia-smi)\n", "nvidia-smi"),
        ("set_source_files_properties(k.cu PROPERTIES CUDA_PTX_COMPILATION ON)\n", "CUDA_PTX_COMPILATION"),
        ("cuda_compile_ptx(PTX k.cu)\n", "cuda_compile_ptx"),
        ("if(TARGET CUDA::nvml)\n", "CUDA::nvml"),
        ("target_link_libraries(t -lnvidia-ml)\n", "nvidia-ml"),
        ("set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)\n", "CMAKE_CUDA_COMPILER"),
    ],
)
def test_what_has_no_translation_is_reported_at_its_line(text: str, word: str) -> None:
    source = "cmake_minimum_required(VERSION 3.20)\n" + text
    hand = [(line, message) for code, line, message in _codes(source) if code == "HPY119"]
    assert hand and hand[0][0] == 2 and word in hand[0][1], hand
    assert _translated(_translated(source)) == _translated(source)


@pytest.mark.parametrize(
    "before, after",
    [
        (
            "target_link_libraries(t PUBLIC cusolver\n  cusolverMg)\n",
            "target_link_libraries(t PUBLIC roc::hipsolver)\n",
        ),
        ('set(EXTRA_LIBS "cusolverMg;cublas")\n', 'set(EXTRA_LIBS "roc::hipblas")\n'),
        ('set(EXTRA_LIBS "cublas;CUDA::nvml")\n', 'set(EXTRA_LIBS "roc::hipblas")\n'),
        ("target_link_libraries(t PRIVATE -lnvidia-ml -lcublas)\n", "target_link_libraries(t PRIVATE -lhipblas)\n"),
    ],
)
def test_a_library_rocm_lacks_leaves_the_link_reported(before: str, after: str) -> None:
    """Left in a link list it would fail the link of every program, also of those that never call it."""
    translated = _translated(before)
    assert (
        translated.replace("find_package(hipsolver REQUIRED)\n", "").replace("find_package(hipblas REQUIRED)\n", "")
        == after
    )
    hand = [m for c, line, m in _codes(before) if c == "HPY119"]
    assert len(hand) == 1 and "removed from the link" in hand[0]


def test_dropped_options_are_noted_with_why() -> None:
    notes = [m for c, _, m in _codes('set(CMAKE_CUDA_FLAGS "-lineinfo -Xptxas -v")\n') if c == "HPY118"]
    assert len(notes) == 2 and all("dropped" in n for n in notes)


def test_cuda_library_samples_shape_helper_file() -> None:
    """A helper .cmake defining a function (the shape CUDA's library samples use): packages found inside it."""
    text = (
        "function(add_example GROUP NAME SOURCES)\n"
        "add_executable(${NAME} ${SOURCES})\n"
        "set_property(TARGET ${NAME} PROPERTY CUDA_ARCHITECTURES OFF)\n"
        "target_include_directories(${NAME} PUBLIC ${CUDA_INCLUDE_DIRS})\n"
        "target_link_libraries(${NAME} PUBLIC cusolver cublas)\n"
        "endfunction()\n"
    )
    after = _translated(text)
    assert "find_package(hip REQUIRED)\nfind_package(hipsolver REQUIRED)\nfind_package(hipblas REQUIRED)\n" in after
    assert "PUBLIC roc::hipsolver roc::hipblas)" in after
    assert after.index("find_package(hip REQUIRED)") < after.index("${hip_INCLUDE_DIRS}")
    assert _translated(after) == after


# --- listfiles of projects written elsewhere ------------------------------------------------------------


@pytest.mark.parametrize(
    "before, after",
    [
        # CUDA alone: find_package(hip) needs Threads, and FindThreads a C or C++ compiler
        ("project(p LANGUAGES CUDA)\n", "project(p LANGUAGES CXX HIP)\n"),
        ("project(p NONE)\nenable_language(CUDA)\n", "project(p NONE)\nenable_language(CXX HIP)\n"),
        ("project(p)\nenable_language(CUDA)\n", "project(p)\nenable_language(HIP)\n"),
    ],
)
def test_a_cuda_only_project_gets_the_language_hip_needs(before: str, after: str) -> None:
    assert _translated(before) == after and _translated(after) == after


def test_a_target_named_like_a_library_keeps_its_name() -> None:
    text = "add_executable(nvJPEG main.cpp)\ntarget_link_libraries(nvJPEG PRIVATE CUDA::cudart CUDA::nvjpeg)\n"
    after = _translated(text)
    # the project's own library named like CUDA's, linked by its name
    own = "add_library(cuRAND STATIC rng.cu)\nadd_executable(app main.cu)\ntarget_link_libraries(app PRIVATE cuRAND)\n"
    assert "target_link_libraries(app PRIVATE cuRAND)" in _translated(own)
    assert "target_link_libraries(nvJPEG PRIVATE hip::host)\n" in after and "add_executable(nvJPEG main.cpp)" in after
    assert [c for c, _, m in _codes(text) if "CUDA::nvjpeg" in m] == ["HPY119"]


def test_a_library_variable_is_an_imported_target_only_where_it_is_linked() -> None:
    path = (
        'set(CUDA_LIB "${CUDA_CUDA_LIBRARY}")\n'
        "add_library(cuda_driver SHARED IMPORTED)\n"
        "set_target_properties(cuda_driver PROPERTIES IMPORTED_LOCATION ${CUDA_LIB})\n"
    )
    assert "hip::host" not in _translated(path)
    linked = 'set(CUDA_LIB "${CUDA_CUDA_LIBRARY}")\ntarget_link_libraries(app ${CUDA_LIB})\n'
    assert 'set(CUDA_LIB "hip::host")' in _translated(linked)
    # a library variable outside a link list is a path, not a target
    assert "hip::" not in _translated("file(COPY ${CUDA_cublas_LIBRARY} DESTINATION lib)\n")


def test_paths_into_the_cuda_headers_name_the_hip_file_or_are_reported() -> None:
    text = (
        "add_custom_command(TARGET app POST_BUILD COMMAND ${CMAKE_COMMAND} -E copy_if_different\n"
        "  ${CUDA_INCLUDE_DIR}/cooperative_groups.h ${CUDAToolkit_INCLUDE_DIRS}/cooperative_groups/details $<TARGET_FILE_DIR:app>)\n"
    )
    after = _translated(text)
    assert "${hip_INCLUDE_DIRS}/hip/hip_cooperative_groups.h" in after
    assert "${CUDAToolkit_INCLUDE_DIRS}/cooperative_groups/details" in after
    assert [c for c, _, m in _codes(text) if "cooperative_groups/details" in m] == ["HPY119"]
    assert _translated(after) == after


FATBIN_STEP = """\
project(drv LANGUAGES C CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 75 80 90)
foreach(arch ${CMAKE_CUDA_ARCHITECTURES})
  list(APPEND GENCODE_FLAGS -gencode=arch=compute_${arch},code=sm_${arch})
endforeach()
set(ALL_CCFLAGS -m64 --threads 0)
add_custom_command(
  OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/kernel.fatbin
  COMMAND ${CMAKE_CUDA_COMPILER} ${ALL_CCFLAGS} -Wno-deprecated-gpu-targets ${GENCODE_FLAGS} -o ${CMAKE_CURRENT_BINARY_DIR}/kernel.fatbin -fatbin ${CMAKE_CURRENT_SOURCE_DIR}/kernel.cu
  DEPENDS kernel.cu)
add_custom_target(kernel_fatbin ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/kernel.fatbin)
add_custom_target(kernel_ptx COMMAND nvcc -ptx -arch=sm_80 kernel.cu -o kernel.ptx)
"""


def test_a_device_only_custom_step_is_translated_whole() -> None:
    after = _translated(FATBIN_STEP)
    assert (
        "COMMAND ${CMAKE_HIP_COMPILER} -x hip --offload-arch=gfx90a ${ALL_CCFLAGS} ${GENCODE_FLAGS} "
        "-o ${CMAKE_CURRENT_BINARY_DIR}/kernel.fatbin --cuda-device-only ${CMAKE_CURRENT_SOURCE_DIR}/kernel.cu\n"
    ) in after
    assert "list(APPEND GENCODE_FLAGS --offload-arch=gfx90a)" in after and "set(ALL_CCFLAGS -m64)" in after
    assert "COMMAND hipcc --genco --offload-arch=gfx90a kernel.cu -o kernel.ptx)" in after
    assert "find_package(hip" not in after  # the HIP language's compiler needs no package
    assert "gencode" not in after.replace("GENCODE", "") and "nvcc" not in after
    assert not [c for c, _, _ in _codes(FATBIN_STEP) if c == "HPY119"]
    assert _translated(after) == after


CUDA_VERSIONS = """\
string(REGEX MATCH "^[0-9]+.[0-9]+" _FIRST_TWO "${CMAKE_CUDA_COMPILER_VERSION}")
if(CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL "14.0")
  message(FATAL_ERROR "CUDA Version > 13 is not supported")
endif()
if (CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL "13.0")
  string(APPEND CMAKE_CUDA_FLAGS " --compress-mode=size")
endif()
foreach(capability ${CMAKE_CUDA_ARCHITECTURES_ALL})
  list(APPEND POSSIBLE ${capability})
endforeach()
list(POP_BACK POSSIBLE _LATEST)
list(TRANSFORM POSSIBLE APPEND "-real" OUTPUT_VARIABLE CMAKE_CUDA_ARCHITECTURES)
list(APPEND CMAKE_CUDA_ARCHITECTURES ${_LATEST})
message(STATUS "CUDA Targets: ${CMAKE_CUDA_ARCHITECTURES}")
"""


def test_cuda_version_and_architecture_variables_keep_their_meaning() -> None:
    after = _translated(CUDA_VERSIONS)
    version = "13.5.0"
    assert f'"{version}")' in after and f"if({version} VERSION_GREATER_EQUAL" in after
    assert "string(APPEND CMAKE_HIP_FLAGS)" in after  # --compress-mode has no clang counterpart
    # the list of every NVIDIA architecture is empty under HIP (noted); what is computed from it is replaced
    assert "foreach(capability ${CMAKE_CUDA_ARCHITECTURES_ALL})" in after
    assert after.count('set(CMAKE_HIP_ARCHITECTURES "gfx90a")') == 2
    assert "CUDA Targets: ${CMAKE_HIP_ARCHITECTURES}" in after
    notes = [m for c, _, m in _codes(CUDA_VERSIONS) if c == "HPY118"]
    assert any("CMAKE_CUDA_ARCHITECTURES_ALL" in m for m in notes)
    assert _translated(after) == after


def test_the_toolkit_s_folders_are_hip_s() -> None:
    after = _translated("target_link_directories(app PRIVATE ${CUDAToolkit_LIBRARY_DIR})\n")
    assert "find_package(hip REQUIRED)\ntarget_link_directories(app PRIVATE ${hip_LIB_INSTALL_DIR})" in after


def test_host_sources_that_include_hip_link_hip_host() -> None:
    text = (
        "project(p LANGUAGES CXX CUDA)\n"
        "set(SRCS main.cpp util.cpp)\n"
        "add_executable(app ${SRCS} kernel.cu)\n"
        "target_include_directories(app PRIVATE ${CUDAToolkit_INCLUDE_DIRS})\n"
        "add_executable(tool tool.cpp)\n"
        "add_executable(linked main.cpp)\ntarget_link_libraries(linked PRIVATE CUDA::cudart)\n"
    )
    after = _translated(text, BuildContext(hip_sources=("util.cpp", "main.cpp")))
    assert (
        "add_executable(app ${SRCS} kernel.cu)\nset_source_files_properties(kernel.cu PROPERTIES LANGUAGE HIP)\n"
        in after
    )
    assert "target_link_libraries(app hip::host)\n" in after
    assert "target_link_libraries(tool" not in after and after.count("hip::host") == 2
    assert _translated(after, BuildContext(hip_sources=("util.cpp", "main.cpp"))) == after


def test_host_sources_using_bfloat16_are_compiled_as_hip_where_hip_is_enabled() -> None:
    # hip_bf16.h is no plain C++ (CUDA's cuda_bf16.h is): the project's own LANGUAGE CXX is overridden after the
    # target, under a guard, so that a build of another backend that enables no HIP still configures
    text = (
        "project(p LANGUAGES CXX)\n"
        "set(CPP_FILES csrc/bindings.cpp csrc/cpu.cpp)\n"
        "if(BUILD_CUDA)\n  enable_language(CUDA)\nendif()\n"
        "set_source_files_properties(${CPP_FILES} PROPERTIES LANGUAGE CXX)\n"
        "add_library(lib SHARED ${CPP_FILES} csrc/kernels.cu)\n"
    )
    context = BuildContext(hip_sources=("csrc/bindings.cpp",), hip_compiled_sources=("csrc/bindings.cpp",))
    after = _translated(text, context)
    assert (
        "add_library(lib SHARED ${CPP_FILES} csrc/kernels.cu)\n"
        "set_source_files_properties(csrc/kernels.cu PROPERTIES LANGUAGE HIP)\n"
        "target_link_libraries(lib hip::host)\n"
        "if(CMAKE_HIP_COMPILER_LOADED)\n  set_source_files_properties(csrc/bindings.cpp PROPERTIES LANGUAGE HIP)\n"
        "endif()\n"
    ) in after
    assert "csrc/cpu.cpp PROPERTIES LANGUAGE HIP" not in after
    assert _translated(after, context) == after
    # a file that enables no GPU language gets nothing: HIP is not there to compile with
    plain = "project(p LANGUAGES CXX)\nadd_library(lib SHARED csrc/bindings.cpp)\n"
    assert "LANGUAGE HIP" not in _translated(plain, context)


def test_the_project_finds_the_host_sources_that_use_bfloat16(tmp_path: Path) -> None:
    from hipify.cli.cli import main

    src = tmp_path / "src"
    (src / "csrc").mkdir(parents=True)
    (src / "CMakeLists.txt").write_text(
        "project(p LANGUAGES CXX CUDA)\nadd_library(lib SHARED csrc/bindings.cpp csrc/cpu.cpp csrc/kernels.cu)\n"
    )
    (src / "csrc" / "ops.h").write_text("#include <cuda_bf16.h>\nvoid scale(__nv_bfloat16* x, int n);\n")
    (src / "csrc" / "bindings.cpp").write_text('#include "ops.h"\nvoid run(__nv_bfloat16* x) { scale(x, 1); }\n')
    (src / "csrc" / "cpu.cpp").write_text("#include <cuda_runtime.h>\nvoid cpu() { cudaDeviceSynchronize(); }\n")
    (src / "csrc" / "kernels.cu").write_text('#include "ops.h"\nvoid scale(__nv_bfloat16* x, int n) {}\n')
    out = tmp_path / "out"
    assert main([str(src), "--out-dir", str(out), "--engine", "regex", "-q"]) == 0
    text = (out / "CMakeLists.txt").read_text()
    assert "set_source_files_properties(csrc/bindings.cpp PROPERTIES LANGUAGE HIP)" in text
    assert "csrc/cpu.cpp PROPERTIES LANGUAGE HIP" not in text


def test_a_header_whose_cuda_include_only_the_gpu_sources_reach_links_no_cpu_target_with_hip(tmp_path: Path) -> None:
    """ggml-common.h's shape: a header shared with the CPU library includes ``cuda_fp16.h`` only under a macro
    that the GPU sources define before including it. The CPU library's C and C++ sources never read that branch
    (the translation gives them no HIP runtime include), so the CPU library gets no hip::host and no
    ``find_package(hip REQUIRED)`` before it (a CPU-only configure would need ROCm); a C++ source that calls the
    runtime does."""
    from hipify.cli.cli import main

    src = tmp_path / "src"
    src.mkdir()
    (src / "CMakeLists.txt").write_text(
        'project(p LANGUAGES C CXX)\nadd_library(base base.c base.cpp)\noption(USE_GPU "" OFF)\n'
        "if(USE_GPU)\n  enable_language(CUDA)\n  add_library(gpu gpu.cu host.cpp)\n"
        "  target_link_libraries(gpu PRIVATE base)\nendif()\n"
    )
    (src / "api.h").write_text(
        "#pragma once\n#if defined(OWN_IMPL_CUDA)\n#include <cuda_fp16.h>\ntypedef half own_half;\n#else\n"
        "typedef unsigned short own_half;\n#endif\nint api(int x);\n"
    )
    (src / "base.c").write_text('#include "api.h"\nint api(int x) { return x + (int)sizeof(own_half); }\n')
    (src / "base.cpp").write_text('#include "api.h"\nint twice(int x) { return 2 * api(x); }\n')
    (src / "gpu.cu").write_text(
        '#define OWN_IMPL_CUDA\n#include "api.h"\n__global__ void k(own_half* p) { p[0] = p[1]; }\n'
    )
    (src / "host.cpp").write_text(
        '#include "api.h"\n#include <cuda_runtime.h>\nvoid h() { cudaDeviceSynchronize(); }\n'
    )
    out = tmp_path / "out"
    assert main([str(src), "--out-dir", str(out), "--engine", "regex", "-q"]) == 0
    text = (out / "CMakeLists.txt").read_text()
    assert "target_link_libraries(base" not in text
    assert text.index("if(USE_GPU)") < text.index("find_package(hip")
    assert "target_link_libraries(gpu PRIVATE hip::host)" in text
    assert "hip_runtime" not in (out / "base.c").read_text() + (out / "base.cpp").read_text()


# --- real builds ----------------------------------------------------------------------------------------


def _cmake_environment() -> tuple[str, str]:
    """(chroot, clang++ inside it) where CMake, hipcc and HIP's CMake packages are; else skip with why. (The
    builds name ROCm's clang++ as their C and C++ compiler: no host compiler is needed.)"""
    tc = rocm_toolchain(CMAKE)
    if not tc.chroot:
        pytest.skip(f"{tc.describe()}: these builds run inside the ROCm chroot (`hipify-py validate --setup`)")
    root = tc.chroot
    found = glob.glob(f"{root}/usr/lib/*/cmake/hip-lang/hip-lang-config.cmake") + glob.glob(
        f"{root}/opt/rocm*/lib/cmake/hip-lang/hip-lang-config.cmake"
    )
    if not found:
        pytest.skip(f"HIP's CMake package hip-lang is not installed at {root}")
    compilers = sorted(glob.glob(f"{root}/usr/lib/llvm-*/bin/clang++")) + glob.glob(
        f"{root}/opt/rocm*/llvm/bin/clang++"
    )
    if not compilers:
        pytest.skip(f"no ROCm clang++ in {root}")
    return root, "/" + os.path.relpath(compilers[-1], root)


def _write(tree: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = tree / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _translate_tree(tree: Path, context: BuildContext) -> list[str]:
    hand = []
    for path in sorted(tree.rglob("*")):
        if path.name == "CMakeLists.txt" or path.suffix == ".cmake":
            text = path.read_text()
            result = translate(text, str(path), context)
            hand += [d.format() for d in result.diagnostics if d.code == "HPY119"]
            path.write_text(apply(text, result.edits).text)
    return hand


def _build(tree: Path, root: str, cxx: str) -> subprocess.CompletedProcess[str]:
    inner = "/" + os.path.relpath(tree, root)
    script = (
        f"cd {inner} && cmake -S . -B build -DCMAKE_CXX_COMPILER={cxx} -DCMAKE_C_COMPILER={cxx[:-2]} "
        "&& cmake --build build"
    )
    return subprocess.run(
        [*chroot_command(root), "sh", "-c", script], capture_output=True, text=True, timeout=600, check=False
    )


_KERNELS = """#include <hip/hip_runtime.h>
__device__ float twice(float x);
__global__ void scale(float* p) { p[threadIdx.x] = twice(p[threadIdx.x]) * KERN_SCALE; }
void launch(float* p) { scale<<<1, 32>>>(p); }
"""
_DEVICE = """#include <hip/hip_runtime.h>
__device__ float twice(float x) { return 2.0f * x; }
"""
_MAIN = """#include <hip/hip_runtime.h>
#include <hiprand/hiprand.h>
void launch(float* p);
int host_count();
int main() {
  float* d = nullptr;
  auto f = [] __device__ (float x) { return x; };
  (void)f;
  if (hipMalloc(&d, 32 * sizeof(float)) != hipSuccess) return host_count();
  hiprandGenerator_t g;
  hiprandCreateGenerator(&g, HIPRAND_RNG_PSEUDO_DEFAULT);
  launch(d);
  return 0;
}
"""
_HOST = """#include <hip/hip_runtime_api.h>
int host_count() { int n = 0; (void)hipGetDeviceCount(&n); return n; }
"""


def test_modern_cuda_project_builds_with_hip_after_translation() -> None:
    """CUDA language, CMAKE_CUDA_* settings, CUDAToolkit targets, a device function in another file (separable
    compilation), .cu sources listed, globbed and renamed, a C++ file on the runtime API, nvcc options."""
    root, cxx = _cmake_environment()
    with tempfile.TemporaryDirectory(dir=Path(root, "tmp"), prefix="hipify-cmake-") as tmp:
        tree = Path(tmp)
        _write(
            tree,
            {
                "CMakeLists.txt": """cmake_minimum_required(VERSION 3.18)
project(modern LANGUAGES CXX CUDA)  # CUDA in a comment stays
find_package(CUDAToolkit REQUIRED)
set(CMAKE_CUDA_STANDARD 17)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
set(CMAKE_CUDA_ARCHITECTURES 70 80)
set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} --expt-relaxed-constexpr --extended-lambda -Xcompiler -Wall")
string(APPEND CMAKE_CUDA_FLAGS_RELEASE " --use_fast_math -lineinfo")
set(KERNELS kernels.cu)
file(GLOB MORE ${CMAKE_CURRENT_SOURCE_DIR}/more/*.cu)
add_library(kern STATIC ${KERNELS} ${MORE})
set_target_properties(kern PROPERTIES CUDA_SEPARABLE_COMPILATION ON CUDA_ARCHITECTURES "70;80")
target_compile_features(kern PUBLIC cuda_std_17)
target_compile_definitions(kern PRIVATE KERN_SCALE=2)
target_compile_options(kern PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas -v>)
add_executable(modern main.cu host.cpp util.cu)
set_target_properties(modern PROPERTIES CUDA_SEPARABLE_COMPILATION ON CUDA_RESOLVE_DEVICE_SYMBOLS ON)
target_link_libraries(modern PRIVATE kern CUDA::cudart CUDA::curand)
""",
                "kernels.cu": _KERNELS,
                "more/device.cu": _DEVICE,
                "main.cu": _MAIN,
                "host.cpp": "",
                "util.hip": _HOST,  # renamed by the run: util.cu -> util.hip
            },
        )
        context = BuildContext(families=("rand",), renamed=(("util.cu", "util.hip"),))
        assert _translate_tree(tree, context) == []
        text = (tree / "CMakeLists.txt").read_text()
        assert "util.hip" in text and "CUDA" not in text.replace("# CUDA in a comment", "")
        done = _build(tree, root, cxx)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        assert (tree / "build" / "modern").is_file()


def test_findcuda_project_builds_with_hip_after_translation() -> None:
    """FindCUDA: check_language/enable_language, find_package(CUDA), CUDA_NVCC_FLAGS, cuda_add_library and
    cuda_add_executable with OPTIONS, ${CUDA_LIBRARIES} and a library variable."""
    root, cxx = _cmake_environment()
    with tempfile.TemporaryDirectory(dir=Path(root, "tmp"), prefix="hipify-cmake-") as tmp:
        tree = Path(tmp)
        _write(
            tree,
            {
                "CMakeLists.txt": """cmake_minimum_required(VERSION 3.10)
project(legacy CXX)
include(CheckLanguage)
check_language(CUDA)
if(CMAKE_CUDA_COMPILER)
  enable_language(CUDA)
endif()
find_package(CUDA REQUIRED)
set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS};-arch=sm_70;--expt-extended-lambda)
list(APPEND CUDA_NVCC_FLAGS -O3 -Xcompiler -fPIC)
include_directories(${CUDA_INCLUDE_DIRS})
set(CUDA_SEPARABLE_COMPILATION ON)
cuda_add_library(kern kernels.cu device.cu OPTIONS -DKERN_SCALE=2)
cuda_add_executable(legacy main.cu host.cpp OPTIONS --use_fast_math)
target_link_libraries(legacy kern ${CUDA_LIBRARIES} ${CUDA_curand_LIBRARY})
""",
                "kernels.cu": _KERNELS,
                "device.cu": _DEVICE,
                "main.cu": _MAIN,
                "host.cpp": _HOST,
            },
        )
        assert _translate_tree(tree, CONTEXT) == []
        done = _build(tree, root, cxx)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        assert (tree / "build" / "legacy").is_file()


def test_a_language_marking_in_another_branch_does_not_count() -> None:
    text = (
        "if(BUILD_CUDA)\n  list(APPEND SRC k.cu)\nelseif(BUILD_HIP)\n"
        "  set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n  list(APPEND SRC k.cu)\nendif()\n"
    )
    after = _translated(text)
    assert after.startswith("if(BUILD_CUDA)\n  list(APPEND SRC k.cu)\n  set_source_files_properties(k.cu PROPERTIES")
    assert after.count("set_source_files_properties") == 2 and _translated(after) == after


def test_a_cuda_librarys_own_find_module_becomes_the_rocm_package() -> None:
    text = (
        "find_package(NCCL REQUIRED)\n"
        "target_include_directories(app PRIVATE ${NCCL_INCLUDE_DIRS})\n"
        "target_link_libraries(app PRIVATE ${NCCL_LIBRARIES})\n"
    )
    assert _translated(text) == (
        "find_package(rccl REQUIRED)\n"
        "target_include_directories(app PRIVATE ${RCCL_INCLUDE_DIRS})\n"
        "target_link_libraries(app PRIVATE roc::rccl)\n"
    )
    # a plain name in a link list, as other CUDA libraries
    assert "roc::rccl" in _translated("target_link_libraries(app PRIVATE nccl)\n")
    # a package that is no CUDA library is the project's
    assert _translated("find_package(MPI REQUIRED)\nfind_package(CUDAToolkit)\n").startswith(
        "find_package(MPI REQUIRED)"
    )


def test_comments_among_the_architectures_stay() -> None:
    text = 'set(CMAKE_CUDA_ARCHITECTURES 75 80 # Turing, Ampere\n    86 90 # Ada, Hopper\n    CACHE STRING "archs")\n'
    out = _translated(text)
    assert (
        out == 'set(CMAKE_HIP_ARCHITECTURES gfx90a  # Turing, Ampere\n      # Ada, Hopper\n    CACHE STRING "archs")\n'
    )
    assert _translated(out) == out


def test_architectures_running_into_other_commands_are_left_as_written() -> None:
    # a call left open: its arguments run on into the next commands, up to a CACHE of theirs
    text = (
        "set(CMAKE_CUDA_ARCHITECTURES 75 80\nproject(p LANGUAGES CXX CUDA)\n"
        'set(CMAKE_BUILD_TYPE "Release" CACHE STRING "type" FORCE)\n)\n'
    )
    out = _translated(text)
    assert "75 80\nproject(p LANGUAGES CXX CUDA)\nset(CMAKE_BUILD_TYPE" in out
    assert any("parentheses among the values" in message for _, _, message in _codes(text))
    assert _translated(out) == out


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("nvcc -cuda k.cu", "hipcc -E --offload-host-only k.cu -o k.cu.cpp.ii"),
        ("nvcc -lib a.o -o libk.a", "hipcc --emit-static-lib a.o -o libk.a"),
        (
            "${CMAKE_CUDA_COMPILER} -dlink a.o -o k.o",
            "${CMAKE_HIP_COMPILER} -x hip -c -x c++ /dev/null -x none a.o -o k.o",
        ),
        ("nvcc -M k.cu -MF k.d", "hipcc -M k.cu -MF k.d"),
    ],
)
def test_a_step_mode_in_a_custom_command_is_translated_with_its_step(command: str, expected: str) -> None:
    text = f"cmake_minimum_required(VERSION 3.20)\nadd_custom_target(step COMMAND {command})\n"
    out = _translated(text)
    # (several words in place of one are a CMake list: a command's arguments)
    assert f"COMMAND {expected})" in out.replace(" --offload-arch=gfx90a", "").replace(";", " "), out
    assert not [c for c in _codes(text) if c[0] == "HPY119"]
    assert _translated(out) == out


def test_a_variable_a_cuda_generator_expression_expands_holds_nvcc_options() -> None:
    """ggml's CMake: set(CUDA_FLAGS -use_fast_math -extended-lambda) and list(APPEND ...) read only through
    ``$<$<COMPILE_LANGUAGE:CUDA>:${CUDA_FLAGS}>``: nvcc's options, which clang refuses as written."""
    text = (
        "project(p LANGUAGES CXX CUDA)\nadd_library(k k.cu)\n"
        "set(CUDA_FLAGS -use_fast_math -extended-lambda)\nlist(APPEND CUDA_FLAGS -compress-mode=size -lineinfo)\n"
        'target_compile_options(k PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:${CUDA_FLAGS}>")\n'
    )
    out = _translated(text)
    assert (
        "set(CUDA_FLAGS -fgpu-flush-denormals-to-zero;-fno-hip-fp32-correctly-rounded-divide-sqrt;-fapprox-func)" in out
    )
    assert "-extended-lambda" not in out and "-compress-mode" not in out
    assert "$<$<COMPILE_LANGUAGE:HIP>:${CUDA_FLAGS}>" in out


# ggml's CMake: host flags joined into one string, "passed to -Xcompiler as a single argument", which nvcc's host
# compile line splits again.
_JOINED_HOST_FLAGS = (
    "project(p LANGUAGES CXX CUDA)\nadd_library(k k.cu)\n"
    "set(HOST_FLAGS -Wall -Wextra)\n"
    'list(JOIN HOST_FLAGS " " HOST_FLAGS_JOINED)\n'
    "list(APPEND CUDA_FLAGS -O2 -Xcompiler ${HOST_FLAGS_JOINED} -Xcompiler -fPIC)\n"
    'set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -Xcompiler ${HOST_FLAGS_JOINED}")\n'
    'target_compile_options(k PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:${CUDA_FLAGS}>")\n'
)


def test_a_host_option_variable_in_a_list_is_split_as_nvcc_splits_it() -> None:
    """``-Xcompiler ${JOINED}`` in a list -> ``SHELL:${JOINED}`` (CMake splits it like a command line); in a
    command-line string (CMAKE_HIP_FLAGS) the value is split anyway and stays plain; a literal option stays plain."""
    out = _translated(_JOINED_HOST_FLAGS)
    assert "list(APPEND CUDA_FLAGS -O2 SHELL:${HOST_FLAGS_JOINED} -fPIC)\n" in out
    assert 'set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} ${HOST_FLAGS_JOINED}")\n' in out
    assert _translated(out) == out


@pytest.mark.skipif(
    shutil.which("cmake") is None or shutil.which("c++") is None, reason="needs cmake and a host C++ compiler"
)
def test_the_split_host_options_reach_the_compile_line_as_separate_options(tmp_path: Path) -> None:
    """The translated list, read by CMake itself in a generator expression as ggml reads it: each host option is
    its own word on the compile line (a C++ target, so no HIP toolchain is needed to see it)."""
    lines = [line for line in _translated(_JOINED_HOST_FLAGS).splitlines() if "CUDA_FLAGS -O2" in line]
    (tmp_path / "a.cpp").write_text("int f() { return 0; }\n")
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(p LANGUAGES CXX)\n"
        "set(HOST_FLAGS -Wall -Wextra)\n"
        'list(JOIN HOST_FLAGS " " HOST_FLAGS_JOINED)\n'
        f"{lines[0]}\n"
        "add_library(t STATIC a.cpp)\n"
        'target_compile_options(t PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${CUDA_FLAGS}>")\n'
    )
    build = tmp_path / "b"
    subprocess.run(
        ["cmake", "-S", str(tmp_path), "-B", str(build), "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"],
        check=True,
        capture_output=True,
    )
    (command,) = json.loads((build / "compile_commands.json").read_text())
    assert " -O2 -Wall -Wextra -fPIC " in command["command"]


def test_each_value_a_glob_gives_one_variable_is_marked() -> None:
    """ggml's CMake globs several sets of sources into one variable in turn (``file(GLOB SRCS a*.cu)``,
    ``list(APPEND ALL ${SRCS})``, ``file(GLOB SRCS b*.cu)``, ...): the mark after the first glob says nothing of the
    later values, which CMake would otherwise give to no language and leave out of the library unbuilt."""
    text = (
        "project(p LANGUAGES CXX CUDA)\nfile(GLOB ALL *.cu)\n"
        'file(GLOB SRCS "inst/a*.cu")\nlist(APPEND ALL ${SRCS})\n'
        'file(GLOB SRCS "inst/b*.cu")\nlist(APPEND ALL ${SRCS})\n'
        "if(MORE)\n  file(GLOB SRCS inst/c*.cu)\n  list(APPEND ALL ${SRCS})\nendif()\nadd_library(k ${ALL})\n"
    )
    out = _translated(text)
    mark = "set_source_files_properties(${SRCS} PROPERTIES LANGUAGE HIP)\n"
    assert 'file(GLOB SRCS "inst/a*.cu")\n' + mark in out
    assert 'file(GLOB SRCS "inst/b*.cu")\n' + mark in out
    assert "  file(GLOB SRCS inst/c*.cu)\n  " + mark in out
    assert "file(GLOB ALL *.cu)\nset_source_files_properties(${ALL} PROPERTIES LANGUAGE HIP)\n" in out
    assert _translated(out) == out
    # the project's own mark of the value it globbed stays the only one
    own = 'file(GLOB SRCS "a*.cu")\nset_source_files_properties(${SRCS} PROPERTIES LANGUAGE HIP)\n'
    assert _translated("project(p LANGUAGES CXX HIP)\n" + own).count("LANGUAGE HIP") == 1


def test_a_project_find_module_of_a_cuda_library_is_found_under_the_rocm_name_everywhere() -> None:
    """find_package(NCCL) of the project's own FindNCCL.cmake becomes find_package(rccl): what the listfile then
    tests and links is RCCL's too (rccl_FOUND, roc::rccl), or the library would stay silently off where RCCL is
    installed ("NCCL not found"); the module's own file keeps its own names."""
    text = (
        "project(p LANGUAGES CXX CUDA)\nadd_library(k k.cu)\nfind_package(NCCL)\n"
        "if (NCCL_FOUND)\n  add_compile_definitions(USE_NCCL)\n  target_link_libraries(k PRIVATE NCCL::NCCL)\n"
        'else()\n  message(STATUS "NCCL not found")\nendif()\n'
    )
    out = _translated(text)
    assert "find_package(rccl)\nif (rccl_FOUND)\n" in out
    assert "target_link_libraries(k PRIVATE roc::rccl)\n" in out
    assert _translated(out) == out
    module = (
        "find_library(NCCL_LIBRARY NAMES nccl)\n"
        "find_package_handle_standard_args(NCCL DEFAULT_MSG NCCL_LIBRARY)\n"
        "if(NCCL_FOUND AND NOT TARGET NCCL::NCCL)\n  add_library(NCCL::NCCL UNKNOWN IMPORTED)\nendif()\n"
    )
    own = apply(module, translate(module, "cmake/FindNCCL.cmake", CONTEXT).edits).text
    assert "if(NCCL_FOUND AND NOT TARGET NCCL::NCCL)\n  add_library(NCCL::NCCL UNKNOWN IMPORTED)" in own
