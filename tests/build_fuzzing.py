"""Build files for fuzzing the make and CMake translators, and the checks every translation must pass.

Shared by the suite's bounded fuzz test (``test_fuzz_buildfiles.py``, hypothesis) and the long run over real build
files cut and recombined (``bench/fuzz_buildfiles.py``). A generated build file is a random sequence of fragments of
the constructs the translators read (compilers found at run time, empty values, conditionals, rules and recipes,
device-only steps, custom commands, generator expressions), with the readers' edges: unterminated ``$(``, quotes,
brackets and parentheses, continuation lines, stray characters, lone CRs. ``recombine`` cuts texts (real build
files, in the bench) at random lines and characters and joins the pieces.

Checks (``failures``): reading raises nothing; the translation raises nothing and reports no internal error
(HPY204); its edits never overlap; translating the output again changes nothing, for input the reader reads
without problems (the contract's idempotence; text it skips as unreadable may read differently once edited).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hipify.buildfiles import CMAKE, MAKE, BuildContext
from hipify.buildfiles import cmake as cmake_translator
from hipify.buildfiles import make as make_translator
from hipify.buildfiles.cmake_reader import read as read_cmake
from hipify.buildfiles.make_reader import read as read_make
from hipify.translation.splice import apply

MAKE_FRAGMENTS = (
    "NVCC ?= nvcc\n",
    "NVCC := $(shell which nvcc 2>/dev/null)\n",
    "NVCC :=\n",
    "NVCC =\n",
    "CC = nvcc\n",
    "CXX = g++\n",
    "CUDA_HOME ?= /usr/local/cuda\n",
    "CFLAGS := $(EXTRA_CFLAGS) -std=c++17 -Xcompiler -Wall -arch=$(ARCH)\n",
    "NVCC_FLAGS = --threads=0 -t=0 --use_fast_math -O3 --compress-mode=size\n",
    'GENCODE = -gencode arch=compute_70,code=sm_70 \\\n  -gencode=arch=compute_80,code=\\"sm_80,compute_80\\"\n',
    "LDFLAGS = -lcublas -lcudart -lnvidia-ml -L$(CUDA_HOME)/lib64\n",
    "ifeq ($(NVCC),)\n",
    "ifneq ($(shell command -v nvcc),)\n",
    "ifdef DEBUG\n",
    "else\n",
    "endif\n",
    "define CMD\n$(NVCC) -c $<\n",
    "endef\n",
    "all: $(TARGETS)\n",
    "app: main.o k.o\n\t$(NVCC) $(CFLAGS) $^ -o $@ $(LDFLAGS)\n",
    "%.o: %.c\n\t$(CC) $(CFLAGS) -c $< -o $@\n",
    "%.o: %.cu\n\t$(NVCC) -dc $(GENCODE) $< -o $@\n",
    "k.ptx: k.cu\n\tnvcc -ptx -arch=sm_80 $<\n",
    "link.o: a.o\n\t$(NVCC) -dlink a.o -o link.o\n",
    "main.o: main.cpp ; $(CXX) -O2 -c $<\n",
    "\t@$(NVCC) -x cu -c a.cu && echo '-arch=sm_70' | grep -arch\n",
    "\t-$(NVCC) $(NVCC_FLAGS) train.cu -o train $(LDFLAGS)\n",
    "SM := $(shell nvidia-smi --query-gpu=compute_cap --format=csv)\n",
    "include common.mk\n",
    "export override FLAGS += -G -lineinfo\n",
    "release: export NVCCFLAGS := -O3\n",
    "OBJ = $(SRC:.cu=.o) $(patsubst %.cpp,%.o,$(wildcard *.cpp))\n",
    "# a comment with nvcc -arch=sm_70\n",
    "X = $(\n",
    "Y = ${unclosed\n",
    "Z = 'open quote\n",
    "\\\n",
    "\t\n",
    ":\n",
    "=\n",
    "$(NVCC)\n",
    "\r\n",
    "\tcd sub && nvcc -cubin k.cu\n",
    ".cu.o:\n\t$(NVCC) -c $<\n",
)
CMAKE_FRAGMENTS = (
    "cmake_minimum_required(VERSION 3.21)\n",
    "project(p LANGUAGES CUDA)\n",
    "project(p NONE)\n",
    "project(p CXX CUDA)\n",
    "enable_language(CUDA)\n",
    "find_package(CUDAToolkit REQUIRED)\n",
    "find_package(CUDA)\n",
    "set(CMAKE_CUDA_ARCHITECTURES 70 80-real)\n",
    'set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -arch=sm_70 --compress-mode=size -Xcompiler -Wall")\n',
    "foreach(arch ${CMAKE_CUDA_ARCHITECTURES})\n  list(APPEND GENCODE_FLAGS -gencode=arch=compute_${arch},code=sm_${arch})\n",
    "endforeach()\n",
    "if(CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 13.0)\n",
    "elseif(CUDAToolkit_VERSION_MAJOR LESS 12)\n",
    "else()\n",
    "endif()\n",
    "list(TRANSFORM CAPS APPEND -real OUTPUT_VARIABLE CMAKE_CUDA_ARCHITECTURES)\n",
    "list(APPEND CMAKE_CUDA_ARCHITECTURES ${LATEST})\n",
    "foreach(c ${CMAKE_CUDA_ARCHITECTURES_ALL})\n",
    "add_executable(nvJPEG main.cpp kernel.cu)\n",
    "add_library(k STATIC ${SRCS})\n",
    "target_link_libraries(nvJPEG PRIVATE CUDA::cudart CUDA::nvjpeg cublas)\n",
    'set(CUDA_LIB "${CUDA_CUDA_LIBRARY}")\n',
    "set_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON CUDA_ARCHITECTURES 75)\n",
    "set_source_files_properties(kernel.cu PROPERTIES LANGUAGE HIP)\n",
    "add_custom_command(OUTPUT k.fatbin COMMAND ${CMAKE_CUDA_COMPILER} ${GENCODE_FLAGS} -o k.fatbin -fatbin k.cu)\n",
    "add_custom_target(ptx ALL nvcc -ptx k.cu COMMAND ${CMAKE_CUDA_COMPILER} -dlink a.o)\n",
    "add_custom_command(TARGET t POST_BUILD COMMAND ${CMAKE_COMMAND} -E copy ${CUDA_INCLUDE_DIR}/cooperative_groups.h .)\n",
    "execute_process(COMMAND nvidia-smi OUTPUT_VARIABLE SMI)\n",
    "target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -rdc=true>)\n",
    "cuda_add_executable(app main.cu OPTIONS -arch=sm_70)\n",
    "file(GLOB SRCS *.cu *.cpp)\n",
    "function(add_sample NAME)\n",
    "endfunction()\n",
    "#[[ a bracket comment CUDA::cublas ]]\n",
    "# set(CMAKE_CUDA_FLAGS -arch=sm_70)\n",
    'message(STATUS "CUDA ${CMAKE_CUDA_COMPILER_VERSION}")\n',
    "set(X [==[ unterminated\n",
    'set(Y "unterminated\n',
    "set(Z (nested (parens)\n",
    "target_link_libraries(\n",
    ")\n",
    "$(MAKEVAR) \\\n",
    "\r\n",
)


def generated(rng: random.Random, kind: str, size: int = 30) -> str:
    """A random build file of ``kind`` (make or cmake) from the fragments, with random blanks between them."""
    fragments = MAKE_FRAGMENTS if kind == MAKE else CMAKE_FRAGMENTS
    pieces = []
    for _ in range(rng.randrange(1, size)):
        piece = rng.choice(fragments)
        if rng.random() < 0.1:
            cut = rng.randrange(len(piece) + 1)
            piece = piece[:cut] if rng.random() < 0.5 else piece[cut:]
        pieces.append(piece)
        if rng.random() < 0.1:
            pieces.append(rng.choice(("", " ", "\t", "\n", "  \\\n", "#", "(", ")", "$", '"')))
    return "".join(pieces)


def recombine(rng: random.Random, texts: Sequence[str], pieces: int = 6) -> str:
    """Pieces of ``texts`` joined: each piece a run of lines, cut at a random character now and then."""
    out = []
    for _ in range(rng.randrange(1, pieces + 1)):
        lines = rng.choice(texts).splitlines(keepends=True)
        if not lines:
            continue
        start = rng.randrange(len(lines))
        piece = "".join(lines[start : start + rng.randrange(1, 40)])
        if rng.random() < 0.3 and piece:
            cut = rng.randrange(len(piece) + 1)
            piece = piece[:cut] if rng.random() < 0.5 else piece[cut:]
        out.append(piece)
    return "".join(out)


def context(rng: random.Random) -> BuildContext:
    hip_sources = tuple(rng.sample(("main.c", "main.cpp", "helper.cpp", "util.c"), rng.randrange(3)))
    return BuildContext(
        families=tuple(rng.sample(("blas", "fft", "rand", "sparse", "cub"), rng.randrange(3))),
        renamed=(("k.cu", "k.hip"),) if rng.random() < 0.2 else (),
        offload_arch=rng.choice((("gfx90a",), ("gfx90a", "gfx942"))),
        roc=rng.random() < 0.2,
        hip_sources=hip_sources,
        # of those, the ones using bfloat16 (compiled as HIP: hipcc in make, LANGUAGE HIP in CMake)
        hip_compiled_sources=tuple(s for s in hip_sources if rng.random() < 0.5),
    )


def failures(text: str, kind: str, build: BuildContext) -> list[str]:
    """What is wrong with the translation of ``text`` as a build file of ``kind`` (see the module doc)."""
    problems: list[str] = []
    translate = make_translator.translate if kind == MAKE else cmake_translator.translate
    path = "Makefile" if kind == MAKE else "CMakeLists.txt"
    try:
        readable = not read_cmake(text).problems if kind == CMAKE else (read_make(text) is not None)
        result = translate(text, path, build)
    except Exception as exc:  # the contract: never raises
        return [f"raised {type(exc).__name__}: {exc}"]
    problems += [f"internal error: {d.message}" for d in result.diagnostics if d.code == "HPY204"]
    fixed = apply(text, result.edits)
    if fixed.rejected:
        problems.append(f"overlapping edits: {fixed.rejected[:3]}")
        return problems
    if readable and not problems:
        again = translate(fixed.text, path, build)
        if again.edits:
            problems.append(f"not idempotent: {again.edits[:3]}\n--- output\n{fixed.text}")
    return problems
