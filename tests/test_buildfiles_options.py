"""nvcc options, CUDA libraries and installation paths -> their hipcc/ROCm forms (shared by make and CMake)."""

from __future__ import annotations

import pytest

from hipify.buildfiles import BuildContext
from hipify.buildfiles.libraries import cmake_target, family_libraries, library_change, rocm_path
from hipify.buildfiles.nvcc_options import (
    KIND_ARCH,
    KIND_DEVICE,
    KIND_DROPPED,
    KIND_HAND,
    KIND_RDC,
    KIND_STEP,
    is_library_option,
    is_nvcc,
    translate_option,
    translate_words,
)

CONTEXT = BuildContext()


def _translate(command: str, context: BuildContext = CONTEXT) -> str:
    words = command.split()
    out: list[str] = []
    i = 0
    for index, change in translate_words(words, context, rocm_var="$(ROCM_PATH)"):
        out += words[i:index]
        out += change.words
        i = index + change.consumed
    return " ".join(out + words[i:])


# nvcc's fast math as clang spells each of its parts (flushed denormals, approximate division and square root,
# approximate functions), without -ffast-math's assumption that no value is infinite or NaN
FAST = "-fgpu-flush-denormals-to-zero -fno-hip-fp32-correctly-rounded-divide-sqrt -fapprox-func"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("-arch=sm_60 -O3", "--offload-arch=gfx90a -O3"),
        ("-arch sm_80", "--offload-arch=gfx90a"),
        ("--gpu-architecture=compute_70 --gpu-code=sm_70", "--offload-arch=gfx90a"),
        ("-gencode arch=compute_60,code=sm_60 -gencode=arch=compute_70,code=sm_70 -c", "--offload-arch=gfx90a -c"),
        ("--generate-code arch=compute_80,code=[sm_80,compute_80]", "--offload-arch=gfx90a"),
        ("-Xcompiler -Wall -O2", "-Wall -O2"),
        ("-Xcompiler=-fopenmp,-Wextra", "-fopenmp -Wextra"),
        ("-rdc=true", "-fgpu-rdc"),
        ("-rdc true", "-fgpu-rdc"),
        ("--relocatable-device-code=true", "-fgpu-rdc"),
        ("-rdc=false", ""),
        ("-dc a.cu", "-fgpu-rdc -c a.cu"),
        ("-c -dc a.cu", "-c -fgpu-rdc a.cu"),  # a flag the command gives already is not repeated
        ("-g -G -O0", "-g -O0"),
        ("-G", "-g"),
        ("--use_fast_math", FAST),
        ("-use_fast_math", FAST),
        ("-x cu a.cu", "-x hip a.cu"),
        ("-x c++ a.cc", "-x c++ a.cc"),
        ("-ccbin g++ -O2", "-O2"),
        ("--compiler-bindir=/usr/bin/g++-9", ""),
        ("-lineinfo", ""),
        ("-Xptxas -v -maxrregcount=64 -maxrregcount 32", ""),
        ("--expt-relaxed-constexpr --extended-lambda -Wno-deprecated-gpu-targets", ""),
        ("--default-stream per-thread", "-fgpu-default-stream=per-thread"),
        ("-std=c++17 --std c++14", "-std=c++17 -std=c++14"),
        ("-lcudart -lcuda -lcudart_static -lm", "-lm"),
        ("-lcublas -lcufft -lcurand -lcusparse -lcusolver", "-lhipblas -lhipfft -lhiprand -lhipsparse -lhipsolver"),
        ("-L/usr/local/cuda/lib64 -I/usr/local/cuda-12.1/include", "-L/opt/rocm/lib -I/opt/rocm/include"),
        (
            "-I$(CUDA_HOME)/include -L${CUDA_PATH}/lib64 -I$(CUDA_DIR)/include",
            "-I$(ROCM_PATH)/include -L$(ROCM_PATH)/lib -I$(ROCM_PATH)/include",
        ),
        (
            "-I./include -L../lib -lpthread -O3 -g -DNDEBUG -c -o a.o",
            "-I./include -L../lib -lpthread -O3 -g -DNDEBUG -c -o a.o",
        ),
        ("-Wl,-rpath,/usr/local/cuda/lib64", "-Wl,-rpath,/opt/rocm/lib"),
    ],
)
def test_nvcc_options_become_hipcc_options(before: str, after: str) -> None:
    assert _translate(before) == after


def test_a_quoted_host_option_list_is_split() -> None:
    change = translate_option(["--compiler-options", "'-fPIC -g'"], 0, CONTEXT)
    assert change is not None and change.consumed == 2 and change.words == ("-fPIC", "-g")
    change = translate_option(['-Xcompiler="-O3,-fopenmp"'], 0, CONTEXT)
    assert change is not None and change.words == ("-O3", "-fopenmp")


def test_the_targets_come_from_the_context_and_once() -> None:
    context = BuildContext(offload_arch=("gfx90a", "gfx942"))
    assert _translate("-gencode arch=compute_60,code=sm_60 -gencode arch=compute_70,code=sm_70", context) == (
        "--offload-arch=gfx90a,gfx942"
    )
    assert _translate("-arch=sm_70", BuildContext(offload_arch=("$(HIP_ARCH)",))) == "--offload-arch=$(HIP_ARCH)"


def test_each_change_has_a_kind_and_a_reason() -> None:
    words = ["-rdc=true", "-arch=sm_70", "-maxrregcount=32", "--run", "-lnvidia-ml", "--ptx"]
    kinds = [translate_option(words, i, CONTEXT) for i in range(len(words))]
    assert [c.kind for c in kinds if c] == [KIND_RDC, KIND_ARCH, KIND_DROPPED, KIND_STEP, KIND_HAND, KIND_DEVICE]
    assert all(c and c.reason for c in kinds)
    # hand work keeps the words as written (reported, never silently dropped)
    assert kinds[3] and kinds[3].hand_work and kinds[3].words == ("--run",)
    assert kinds[4] and kinds[4].hand_work and kinds[4].words == ("-lnvidia-ml",)
    # a device-only step is hipcc's code object, what hipModuleLoad loads
    assert kinds[5] and kinds[5].words == ("--genco",)


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        ("--compress-mode=size", ()),
        ("--no-compress", ()),
        ("--include-path=inc", ("-Iinc",)),
        ("--pre-include=first.h", ("-include", "first.h")),
        ("--generate-dependencies-with-compile", ("-MD",)),
        ("-static-global-template-stub=true", ()),
    ],
)
def test_options_hipcc_lacks_or_spells_otherwise(option: str, expected: tuple[str, ...]) -> None:
    change = translate_option([option], 0, CONTEXT)
    assert change is not None and change.words == expected and not change.hand_work


def test_library_options_are_told_from_flags_that_start_like_one() -> None:
    assert is_library_option("-lcublas") and is_library_option("-l") and is_library_option("--library=cufft")
    assert not is_library_option("-lto-ir") and not is_library_option("-lineinfo")


def test_a_word_that_is_not_an_option_is_none() -> None:
    assert translate_option(["a.cu"], 0, CONTEXT) is None
    assert translate_option(["-O3"], 0, CONTEXT) is None
    assert translate_option(["-std=c++17"], 0, CONTEXT) is None


def test_translating_the_output_again_changes_nothing() -> None:
    once = _translate("-arch=sm_60 -Xcompiler -fopenmp -rdc=true -lcublas -I/usr/local/cuda/include --use_fast_math")
    assert _translate(once) == once


def test_nvcc_is_recognised_by_its_paths() -> None:
    assert is_nvcc("nvcc") and is_nvcc("$(CUDA_HOME)/bin/nvcc") and is_nvcc("/usr/local/cuda-11.8/bin/nvcc")
    assert is_nvcc("${CUDA_PATH}/bin/nvcc")
    assert not is_nvcc("nvcc.py") and not is_nvcc("hipcc") and not is_nvcc("g++")


def test_library_names_come_from_the_table_families() -> None:
    hip = family_libraries(False)
    assert hip["blas"] == "hipblas" and hip["sparse"] == "hipsparse" and hip["rtc"] == "hiprtc"
    roc = family_libraries(True)
    assert roc["blas"] == "rocblas" and roc["dnn"] == "MIOpen"
    assert library_change("cublas", BuildContext(roc=True)) == library_change("cublas", BuildContext(roc=True))
    roc_blas = library_change("cublas", BuildContext(roc=True))
    assert roc_blas is not None and roc_blas.name == "rocblas"
    cudnn = library_change("cudnn", CONTEXT)
    assert cudnn is not None and cudnn.hand_work  # cuDNN maps to MIOpen only with --roc
    assert library_change("m", CONTEXT) is None and library_change("pthread", CONTEXT) is None


def test_cuda_paths_map_to_rocm() -> None:
    assert rocm_path("/usr/local/cuda", "/opt/rocm") == "/opt/rocm"
    assert rocm_path("/usr/local/cuda/targets/x86_64-linux/lib", "/opt/rocm") == "/opt/rocm/lib"
    assert rocm_path("${CUDA_TOOLKIT_ROOT_DIR}/include", "${ROCM_PATH}") == "${ROCM_PATH}/include"
    assert rocm_path("/usr/include", "/opt/rocm") is None
    assert rocm_path("$(CUDA_SAMPLES)/x", "/opt/rocm") is None


def test_cmake_imported_targets() -> None:
    cudart = cmake_target("CUDA::cudart", CONTEXT)
    assert cudart is not None and (cudart.target, cudart.package) == ("hip::host", "hip")
    cublas = cmake_target("CUDA::cublas", CONTEXT)
    assert cublas is not None and (cublas.target, cublas.package) == ("roc::hipblas", "hipblas")
    cufft = cmake_target("CUDA::cufft", CONTEXT)
    assert cufft is not None and (cufft.target, cufft.package) == ("hip::hipfft", "hipfft")
    cupti = cmake_target("CUDA::cupti", CONTEXT)
    assert cupti is not None and cupti.hand_work
    assert cmake_target("Threads::Threads", CONTEXT) is None


def test_a_variable_naming_a_folder_of_the_installation_names_rocm_s() -> None:
    assert rocm_path("$(CUDA_LIB_DIR)", "$(ROCM_PATH)") == "$(ROCM_PATH)/lib"
    assert rocm_path("${CUDA_INC_PATH}", "$(ROCM_PATH)") == "$(ROCM_PATH)/include"
    assert rocm_path("$(CUDA_HOME)/lib64", "$(ROCM_PATH)") == "$(ROCM_PATH)/lib"


def test_a_suite_s_shared_make_files_are_build_files() -> None:
    from hipify.buildfiles import MAKE, build_kind

    assert build_kind("common/make.config") == MAKE and build_kind("rules.mak") == MAKE
    assert build_kind("make_table.py") is None
