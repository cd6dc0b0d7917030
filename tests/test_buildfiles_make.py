"""GNU make files translated for hipcc: each construct, what must stay, what is reported (hipify.buildfiles.make)."""

from __future__ import annotations

import pytest

from hipify.buildfiles import BuildContext
from hipify.buildfiles.make import translate
from hipify.buildfiles.make_reader import ASSIGN, COMMENT, CONDITIONAL, DEFINE, INCLUDE, RECIPE, RULE, read
from hipify.model import Diagnostic
from hipify.translation.splice import apply

CONTEXT = BuildContext()


def run(text: str, context: BuildContext = CONTEXT) -> tuple[str, tuple[Diagnostic, ...]]:
    result = translate(text, "Makefile", context)
    fixed = apply(text, result.edits)
    assert not fixed.rejected, fixed.rejected
    # translating the output again changes nothing
    again = translate(fixed.text, "Makefile", context)
    assert again.edits == (), (fixed.text, again.edits)
    return fixed.text, result.diagnostics


def codes(diagnostics: tuple[Diagnostic, ...]) -> list[str]:
    return [d.code for d in diagnostics]


def test_reader_statements() -> None:
    text = (
        "# a comment with -arch=sm_70\n"
        "export NVCC ?= nvcc\n"
        "FLAGS := -O3 \\\n"
        "   -arch=sm_70 # trailing comment\n"
        "include common.mk\n"
        "ifeq ($(DEBUG),yes)\n"
        "endif\n"
        "define CMD\n"
        "nvcc -c $<\n"
        "endef\n"
        "a.o: a.cu ; $(NVCC) -c $< -o $@\n"
        "app: a.o\n"
        "\t$(NVCC) $^ -o $@ && echo '-arch in a string'\n"
    )
    statements = read(text)
    kinds = [s.kind for s in statements]
    assert kinds == [COMMENT, ASSIGN, ASSIGN, INCLUDE, CONDITIONAL, CONDITIONAL, DEFINE, RULE, RULE, RECIPE]
    nvcc, flags = statements[1], statements[2]
    assert (nvcc.name, nvcc.op, [w.text for w in nvcc.words]) == ("NVCC", "?=", ["nvcc"])
    assert [w.text for w in flags.words] == ["-O3", "-arch=sm_70"]  # the comment is not a word
    assert [w.text for w in statements[3].words] == ["common.mk"]
    assert [w.text for w in statements[7].recipe] == ["$(NVCC)", "-c", "$<", "-o", "$@"]
    recipe = [w.text for w in statements[9].words]
    assert recipe == ["$(NVCC)", "$^", "-o", "$@", "&&", "echo", "'-arch in a string'"]
    for st in statements:
        for word in st.words:
            assert text[word.start : word.end] == word.text


HECBENCH_STYLE = """\
# Compiler can be set below, or via environment variable
CC        = nvcc
ARCH      = sm_60

program = main
source = main.cu kernel.cu
obj = $(source:.cu=.o)

# Standard Flags: -arch in a comment stays
CFLAGS := $(EXTRA_CFLAGS) -std=c++17 -Xcompiler -Wall -arch=$(ARCH)
LDFLAGS = -lcublas -lcudart

ifeq ($(OPTIMIZE),yes)
  CFLAGS += -O3 -use_fast_math
endif

$(program): $(obj)
\t$(CC) $(CFLAGS) $(obj) -o $@ $(LDFLAGS)

%.o: %.cu Makefile
\t$(CC) $(CFLAGS) -c $< -o $@

clean:
\trm -rf $(program) $(obj)
"""


def test_a_hecbench_style_makefile() -> None:
    out, diagnostics = run(HECBENCH_STYLE)
    assert "CC        = hipcc\n" in out
    assert "CFLAGS := $(EXTRA_CFLAGS) -std=c++17 -Wall --offload-arch=$(HIP_ARCH)\n" in out
    assert "LDFLAGS = -lhipblas\n" in out
    assert (
        "  CFLAGS += -O3 -fgpu-flush-denormals-to-zero -fno-hip-fp32-correctly-rounded-divide-sqrt -fapprox-func\n"
        in out
    )
    assert "# Standard Flags: -arch in a comment stays\n" in out
    # the targets in a variable users can override, before the first statement (and its comment)
    assert out.startswith(
        "# AMD GPU targets hipcc compiles for (comma-separated): make HIP_ARCH=gfx942\nHIP_ARCH ?= gfx90a\n\n"
        "# Compiler can be set below"
    )
    assert diagnostics == ()


def test_targets_come_from_the_context() -> None:
    out, _ = run("app: a.cu\n\tnvcc -arch=sm_80 -o app a.cu\n", BuildContext(offload_arch=("gfx90a", "gfx942")))
    assert "HIP_ARCH ?= gfx90a,gfx942\n" in out and "\thipcc --offload-arch=$(HIP_ARCH) -o app a.cu\n" in out


def test_several_gencodes_become_one_target_option() -> None:
    text = (
        "GENCODE = -gencode arch=compute_60,code=sm_60 -gencode arch=compute_70,code=sm_70 \\\n"
        '          -gencode=arch=compute_80,code=\\"sm_80,compute_80\\"\n'
        "app: a.cu\n\t$(CUDA_HOME)/bin/nvcc $(GENCODE) -o app a.cu\n"
    )
    out, _ = run(text)
    assert "GENCODE = --offload-arch=$(HIP_ARCH)" in out and "gencode" not in out.replace("GENCODE", "")
    assert "\thipcc $(GENCODE) -o app a.cu\n" in out


def test_relocatable_device_code_reaches_the_link() -> None:
    text = "app: a.o b.o\n\tnvcc a.o b.o -o app\n\n%.o: %.cu\n\tnvcc -dc -arch=sm_70 $< -o $@\n"
    out, _ = run(text)
    assert "\thipcc -fgpu-rdc -c --offload-arch=$(HIP_ARCH) $< -o $@\n" in out
    assert "\thipcc -fgpu-rdc --offload-arch=$(HIP_ARCH) a.o b.o -o app\n" in out
    # a flags variable that holds -rdc=true carries it to the link already
    out, _ = run("F = -rdc=true\napp: a.o\n\tnvcc $(F) a.o -o app\na.o: a.cu\n\tnvcc $(F) -c a.cu\n")
    assert "F = -fgpu-rdc\n" in out and "\thipcc --offload-arch=$(HIP_ARCH) $(F) a.o -o app\n" in out


def test_only_the_cuda_compiler_commands_change() -> None:
    text = (
        "CXX = g++\n"
        "check:\n"
        "\techo '-arch=sm_70 -Xcompiler' | grep -arch\n"
        "\t$(CXX) -arch=x86 host.cpp -o host -L/usr/local/cuda/lib64 -lcudart\n"
        "\tnvcc -Xcompiler -fopenmp -c k.cu # -arch=sm_70 in a shell comment\n"
    )
    out, _ = run(text)
    assert "\techo '-arch=sm_70 -Xcompiler' | grep -arch\n" in out
    # a host compiler keeps its options; it links the HIP runtime in the CUDA runtime's place
    assert "\t$(CXX) -arch=x86 host.cpp -o host -L/opt/rocm/lib -lamdhip64\n" in out
    assert "\thipcc --offload-arch=$(HIP_ARCH) -fopenmp -c k.cu # -arch=sm_70 in a shell comment\n" in out


def test_compiler_variables_in_every_spelling() -> None:
    text = (
        "NVCC ?= nvcc\n"
        "CUDA_CC := /usr/local/cuda-12.2/bin/nvcc -ccbin g++\n"
        "LINK = $(CUDA_CC)\n"
        "app: a.o\n\t@$(LINK) -Xcompiler -fPIC a.o -o app\n"
        "a.o: a.cu\n\t-@$(NVCC) -x cu -c a.cu\n"
    )
    out, _ = run(text)
    assert "NVCC ?= hipcc\n" in out and "CUDA_CC := hipcc\n" in out and "LINK = $(CUDA_CC)\n" in out
    assert "\t@$(LINK) --offload-arch=$(HIP_ARCH) -fPIC a.o -o app\n" in out
    assert "\t-@$(NVCC) --offload-arch=$(HIP_ARCH) -x hip -c a.cu\n" in out


def test_cuda_paths_become_rocm_paths() -> None:
    text = "NVCC = nvcc\nINC = -I$(CUDA_HOME)/include -I/usr/local/cuda/include\napp: a.cu\n\t$(NVCC) $(INC) a.cu\n"
    out, _ = run(text)
    assert "INC = -I$(ROCM_PATH)/include -I/opt/rocm/include\n" in out
    assert "ROCM_PATH ?= /opt/rocm\n" in out


def test_target_specific_variables() -> None:
    text = (
        "NVCC = nvcc\nNVCC_COMPILE_FLAGS = -O3 --default-stream per-thread -arch=$(ARCH)\n"
        "release: export NVCCFLAGS := $(NVCC_COMPILE_FLAGS)\n"
        "debug: override NVCCFLAGS += -G\n"
        "k.o: k.cu\n\t$(NVCC) $(NVCCFLAGS) -c $< -o $@\n"
    )
    out, _ = run(text)
    assert "NVCC_COMPILE_FLAGS = -O3 -fgpu-default-stream=per-thread --offload-arch=$(HIP_ARCH)\n" in out
    assert "debug: override NVCCFLAGS += -g\n" in out


def test_flags_of_an_included_file_are_translated() -> None:
    # common.mk: no recipe here uses NVCC_FLAGS, but it holds options only nvcc takes
    out, _ = run("NVCC_FLAGS = -O2 -arch=sm_70 --expt-relaxed-constexpr\nHOST_FLAGS = -O2 -Wall\n")
    assert "NVCC_FLAGS = -O2 --offload-arch=$(HIP_ARCH)\n" in out and "HOST_FLAGS = -O2 -Wall\n" in out


def test_dropped_options_are_noted_with_their_reason() -> None:
    out, diagnostics = run("app: a.cu\n\tnvcc -maxrregcount=32 -Xptxas -v -lineinfo a.cu\n")
    assert "\thipcc --offload-arch=$(HIP_ARCH) a.cu\n" in out
    # several dropped words in a row, at the end of a line
    out, _ = run("F = -O2 -lineinfo --expt-relaxed-constexpr\nG = -lineinfo -lineinfo\napp:\n\tnvcc $(F) $(G) a.cu\n")
    assert "\nF = -O2\nG =" in out
    notes = [d for d in diagnostics if d.code == "HPY118"]
    assert [(d.line, d.col) for d in notes] == [(2, 7), (2, 24), (2, 35)]
    assert "__launch_bounds__" in notes[0].message


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("a: a.cu\n\tnvcc --run a.cu\n", "--run"),
        ("a.ltoir: a.cu\n\tnvcc -lto-ir a.cu\n", "-lto-ir"),
        ("a.o: a.ptx\n\tptxas -arch=sm_70 a.ptx -o a.o\n", "ptxas"),
        ("dump: app\n\tcuobjdump -sass app\n", "cuobjdump"),
        ("dis: app\n\t$(CUDA_HOME)/bin/nvdisasm a.cubin\n", "nvdisasm"),
        ("k.c: k.fatbin\n\tbin2c --name k k.fatbin > k.c\n", "bin2c"),
        ("SM := $(shell nvidia-smi --query-gpu=compute_cap --format=csv)\n", "nvidia-smi"),
        ("a.o: a.cu\n\tnvcc -optf opts.txt -c a.cu\n", "-optf"),
    ],
)
def test_untranslatable_steps_are_reported_where_they_are(text: str, subject: str) -> None:
    result = translate(text, "Makefile", CONTEXT)
    hand = [d for d in result.diagnostics if d.code == "HPY119"]
    assert len(hand) == 1 and hand[0].subject == subject
    assert hand[0].line >= 1 and hand[0].col >= 1
    # at the start of the word (or make function) that names it
    line = text.splitlines()[hand[0].line - 1]
    col = hand[0].col
    assert line[col - 1 :].split()[0].startswith(("$(", subject)) and subject in line[col - 1 :]
    assert col == 1 or line[col - 2] in " \t@-"
    # left as written
    fixed = apply(text, result.edits).text
    assert subject in fixed


def test_a_makefile_without_cuda_is_left_alone() -> None:
    text = (
        "CC = gcc\nCFLAGS = -O2 -march=native # -arch=sm_70\n"
        "app: a.c\n\t$(CC) $(CFLAGS) -arch x86_64 a.c -o app -lm\n"
        "hip: k.hip\n\thipcc --offload-arch=gfx90a k.hip -lhipblas\n"
    )
    assert translate(text, "Makefile", CONTEXT).edits == ()


def test_renamed_sources_are_renamed_in_the_makefile() -> None:
    context = BuildContext(renamed=(("main.cu", "main.hip"), ("kernel.cu", "kernel.hip")))
    out, _ = run(HECBENCH_STYLE, context)
    assert "source = main.hip kernel.hip\n" in out
    assert "obj = $(source:.hip=.o)\n" in out
    assert "%.o: %.hip Makefile\n" in out
    # a file that was not renamed (not a source of the project) stays
    out, _ = run("x: other.cu main.cu\n\tcat other.cu\nSRC = $(wildcard *.cu)\n.cu.o:\n\ttrue\n", context)
    assert "x: other.cu main.hip\n" in out and "SRC = $(wildcard *.hip)\n" in out and ".hip.o:\n" in out


def test_roc_links_the_roc_libraries() -> None:
    out, _ = run("LDFLAGS = -lcublas -lcurand\n", BuildContext(roc=True))
    assert "LDFLAGS = -lrocblas -lrocrand\n" in out
    out, _ = run("LDFLAGS = -lcublas -lcurand\n", BuildContext(roc=True, hip_families=("blas",)))
    assert "LDFLAGS = -lhipblas -lrocrand\n" in out


def test_continuation_lines_and_dropped_words() -> None:
    text = "CFLAGS := -O3 \\\n          -Xcompiler -fopenmp \\\n          --expt-relaxed-constexpr\napp: a.cu\n\tnvcc $(CFLAGS) a.cu\n"
    out, _ = run(text)
    assert "\nCFLAGS := -O3 \\\n          -fopenmp \\\n" in out
    assert "relaxed" not in out


# --- build files of projects written elsewhere (the compiler found at run time, host objects, device steps) ----

FOUND_AT_RUN_TIME = """\
CC ?= clang
NVCC_FLAGS = --threads=0 -t=0 --use_fast_math -std=c++17 -O3
NVCC_LDFLAGS = -lcublas -lcublasLt
ifneq ($(OS), Windows_NT)
  NVCC := $(shell which nvcc 2>/dev/null)
  NVCC_LDFLAGS += -lnvidia-ml
else
  ifneq ($(shell where nvcc 2> nul),"")
    NVCC := nvcc
  else
    NVCC :=
  endif
endif
ifneq ($(GPU_COMPUTE_CAPABILITY),)
  NVCC_FLAGS += --generate-code arch=compute_$(GPU_COMPUTE_CAPABILITY),code=[compute_$(GPU_COMPUTE_CAPABILITY),sm_$(GPU_COMPUTE_CAPABILITY)]
endif
TARGETS = train
ifeq ($(NVCC),)
  $(info nvcc not found, skipping GPU builds)
else
  TARGETS += train_gpu
endif
ifneq ($(shell command -v nvcc),)
  HAVE_NVCC = 1
endif
all: $(TARGETS)
train: train.c
\t$(CC) -O3 $^ -lm -o $@
train_gpu: train.cu
\t$(NVCC) $(NVCC_FLAGS) $^ $(NVCC_LDFLAGS) -o $@
"""


def test_a_compiler_found_at_run_time_is_looked_for_as_hipcc() -> None:
    out, diagnostics = run(FOUND_AT_RUN_TIME)
    assert "  NVCC := $(shell which hipcc 2>/dev/null)\n" in out
    assert '  ifneq ($(shell where hipcc 2> nul),"")\n    NVCC := hipcc\n  else\n    NVCC :=\n' in out
    assert "ifneq ($(shell command -v hipcc),)\n" in out and "ifeq ($(NVCC),)\n" in out
    assert (
        "NVCC_FLAGS = -fgpu-flush-denormals-to-zero -fno-hip-fp32-correctly-rounded-divide-sqrt -fapprox-func -std=c++17 -O3\n"
        in out
    )
    # the architecture option is set only when a variable nobody sets is: every compile names the targets
    assert "\t$(NVCC) --offload-arch=$(HIP_ARCH) $(NVCC_FLAGS) $^ $(NVCC_LDFLAGS) -o $@\n" in out
    # a library ROCm lacks leaves the link, reported
    assert "NVCC_LDFLAGS += \n" in out or "NVCC_LDFLAGS +=\n" in out
    assert [d.subject for d in diagnostics if d.code == "HPY119"] == ["-lnvidia-ml"]
    assert "\t$(CC) -O3 $^ -lm -o $@\n" in out  # the CPU program is not the CUDA compiler's


def test_an_empty_compiler_value_never_stops_the_translation() -> None:
    for text in ("NVCC :=\n", "NVCC :=\nNVCC ?= nvcc\napp:\n\t$(NVCC) a.cu\n", "CC =\nall:\n\t$(CC)\n", "X = $(\n"):
        result = translate(text, "Makefile", CONTEXT)
        assert not [d for d in result.diagnostics if d.code == "HPY204"], (text, result.diagnostics)


def test_an_architecture_set_for_certain_is_not_repeated() -> None:
    text = "ARCH = sm_70\nFLAGS = -arch=$(ARCH)\nifeq ($(DEBUG),1)\n  FLAGS += -G\nendif\napp: a.cu\n\tnvcc $(FLAGS) a.cu\n"
    out, _ = run(text)
    assert "\thipcc $(FLAGS) a.cu\n" in out and out.count("--offload-arch") == 1
    # queries of the compiler need none
    out, _ = run("version:\n\tnvcc --version\n")
    assert "\thipcc --version\n" in out and "HIP_ARCH" not in out


def test_device_only_steps_become_code_objects() -> None:
    out, diagnostics = run("k.ptx: k.cu\n\tnvcc -ptx -arch=sm_80 $<\nk.fatbin: k.cu\n\tnvcc -fatbin k.cu -o k.fatbin\n")
    assert "\thipcc --genco --offload-arch=$(HIP_ARCH) $< -o $@\n" in out
    assert "\thipcc --offload-arch=$(HIP_ARCH) --genco k.cu -o k.fatbin\n" in out
    assert not [d for d in diagnostics if d.code == "HPY119"]
    # outside a rule the output is named as nvcc names it
    out, _ = run("all:\n\tcd sub && nvcc -cubin -gencode arch=compute_70,code=sm_70 sub/k.cu\n")
    assert "nvcc" not in out and "hipcc --genco --offload-arch=$(HIP_ARCH) sub/k.cu -o k.cubin\n" in out


def test_a_step_without_a_hip_counterpart_is_left_exactly_as_written() -> None:
    text = "NVCC = nvcc\nrun: a.cu\n\t$(NVCC) -arch=sm_70 --run a.cu -o a\n"
    out, diagnostics = run(text)
    assert "\t$(NVCC) -arch=sm_70 --run a.cu -o a\n" in out
    assert [d.subject for d in diagnostics if d.code == "HPY119"] == ["--run"]


@pytest.mark.parametrize(
    ("recipe", "expected"),
    [
        # nvcc -cuda writes the host code, preprocessed, to a.cu.cpp.ii
        ("nvcc -cuda a.cu", "hipcc --offload-arch=$(HIP_ARCH) -E --offload-host-only a.cu -o a.cu.cpp.ii"),
        ("nvcc -cuda a.cu -o a.ii", "hipcc --offload-arch=$(HIP_ARCH) -E --offload-host-only a.cu -o a.ii"),
        # the device link makes an empty object under its name: clang links device code at the final link
        ("nvcc -dlink a.o b.o -o dl.o", "hipcc --offload-arch=$(HIP_ARCH) -c -x c++ /dev/null -x none a.o b.o -o dl.o"),
        ("nvcc -lib a.o -o libk.a", "hipcc --offload-arch=$(HIP_ARCH) --emit-static-lib a.o -o libk.a"),
        ("nvcc -lib a.cu", "hipcc --offload-arch=$(HIP_ARCH) --emit-static-lib a.cu -o a.a"),
        ("nvcc -M a.cu > a.d", "hipcc --offload-arch=$(HIP_ARCH) -M a.cu > a.d"),
        ("nvcc --generate-dependencies a.cu", "hipcc --offload-arch=$(HIP_ARCH) -M a.cu"),
        ("nvcc -link a.o -o app", "hipcc --offload-arch=$(HIP_ARCH) a.o -o app"),
    ],
)
def test_a_step_mode_is_translated_with_its_step(recipe: str, expected: str) -> None:
    out, diagnostics = run(f"all:\n\t{recipe}\n")
    assert f"\t{expected}\n" in out, out
    assert not [d for d in diagnostics if d.code == "HPY119"]
    again, _ = run(out)
    assert again == out


def test_c_sources_compiled_by_the_cuda_compiler_take_no_cxx_standard() -> None:
    text = (
        "CC = nvcc\nCFLAGS := -std=c++17 -Xcompiler -Wall -arch=sm_60\n"
        "main: main.o k.o\n\t$(CC) $(CFLAGS) main.o k.o -o main\n"
        "%.o: %.c\n\t$(CC) $(CFLAGS) -c $< -o $@\n"
        "k.o: k.cu\n\t$(CC) $(CFLAGS) -c k.cu -o k.o\n"
        "util.o: util.c\n\t$(CC) -std=c++17 $(CFLAGS) -c util.c\n"
    )
    out, _ = run(text)
    assert "\t$(CC) $(filter-out -std=c++% -std=gnu++%,$(CFLAGS)) -c $< -o $@\n" in out
    assert "\t$(CC) $(CFLAGS) -c k.cu -o k.o\n" in out and "\t$(CC) $(CFLAGS) main.o k.o -o main\n" in out
    assert "\t$(CC) $(filter-out -std=c++% -std=gnu++%,$(CFLAGS)) -c util.c\n" in out


HOST_OBJECTS = """\
CC = gcc
CXX = g++
NVCC = nvcc
CFLAGS = -O2
app: main.o helper.o plain.o kernel.o
\t$(NVCC) -arch=sm_80 $^ -o $@
%.o: %.c
\t$(CC) $(CFLAGS) -c $< -o $@
helper.o: helper.cpp
\t$(CXX) -O2 -c helper.cpp
kernel.o: kernel.cu
\t$(NVCC) -arch=sm_80 -c $< -o $@
"""


def test_host_compilers_of_sources_that_include_hip_are_told_where_hip_is() -> None:
    context = BuildContext(hip_sources=("main.c", "helper.cpp"))
    out, _ = run(HOST_OBJECTS, context)
    assert "\t$(CC) -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include $(CFLAGS) -c $< -o $@\n" in out
    assert "\t$(CXX) -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include -O2 -c helper.cpp\n" in out
    assert "ROCM_PATH ?= /opt/rocm\n" in out
    # without such sources the host compiles keep their words
    out, _ = run(HOST_OBJECTS)
    assert "\t$(CC) $(CFLAGS) -c $< -o $@\n" in out and "-D__HIP" not in out


def test_sources_left_to_make_built_in_rules_get_the_flags_through_cppflags() -> None:
    text = "app: main.o kernel.o\n\tnvcc -arch=sm_80 main.o kernel.o -o app\nkernel.o: kernel.cu\n\tnvcc -c kernel.cu\n"
    out, _ = run(text, BuildContext(hip_sources=("main.cpp", "elsewhere.cpp")))
    assert out.endswith("# make's built-in rules compile main.cpp, which include the HIP runtime\n"
                        "CPPFLAGS += -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include\n")  # fmt: skip


def test_a_host_link_of_the_hip_runtime_finds_it() -> None:
    out, _ = run("LIBS = -lcudart -lm\napp: a.o\n\tg++ a.o $(LIBS) -o app\n")
    assert "LIBS = -L$(ROCM_PATH)/lib -lamdhip64 -lm\n" in out


def test_c_sources_that_include_hip_compiled_by_hipcc_get_the_platform_define() -> None:
    # hipcc compiles a .c file as C, without HIP's macros; a .cu file is HIP and needs nothing
    text = "CC = nvcc\napp: main.o k.o\n\t$(CC) -arch=sm_80 $^ -o $@\n%.o: %.c\n\t$(CC) -c $< -o $@\n%.o: %.cu\n\t$(CC) -arch=sm_80 -c $<\n"
    out, _ = run(text, BuildContext(hip_sources=("main.c",)))
    assert "%.o: %.c\n\t$(CC) --offload-arch=$(HIP_ARCH) -D__HIP_PLATFORM_AMD__ -c $< -o $@\n" in out
    assert "\t$(CC) -arch" not in out and "CPPFLAGS" not in out  # the pattern rule compiles main.c


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the variable reaches the link through -l$(X) / -l${X}: the runtime stays named (HIP's)
        (
            "CUDARTLIB ?= cudart\nLDFLAGS := -l${CUDARTLIB} -lrt\n",
            "CUDARTLIB ?= amdhip64\nLDFLAGS := -l${CUDARTLIB} -lrt\n",
        ),
        (
            "LIBRARIES += cublas\nLDFLAGS += $(LIBRARIES:%=-l%)\n",
            "LIBRARIES += hipblas\nLDFLAGS += $(LIBRARIES:%=-l%)\n",
        ),
        (
            "LIBS := cublas curand\nL = $(addprefix -l,$(LIBS))\n",
            "LIBS := hipblas hiprand\nL = $(addprefix -l,$(LIBS))\n",
        ),
        ("LIBS := cufft m\nL = $(patsubst %,-l%,$(LIBS))\n", "LIBS := hipfft m\nL = $(patsubst %,-l%,$(LIBS))\n"),
        ("LIBS := curand\nL = $(foreach l,$(LIBS),-l$(l))\n", "LIBS := hiprand\nL = $(foreach l,$(LIBS),-l$(l))\n"),
        # followed through a variable that only names others
        (
            "A := cublas\nLIBS := $(A) pthread\nL = $(LIBS:%=-l%)\n",
            "A := hipblas\nLIBS := $(A) pthread\nL = $(LIBS:%=-l%)\n",
        ),
        # in a recipe command
        ("LIB = cufft\napp: a.o\n\t$(CXX) $^ -l$(LIB) -o $@\n", "LIB = hipfft\napp: a.o\n\t$(CXX) $^ -l$(LIB) -o $@\n"),
    ],
)
def test_library_named_through_a_variable(text: str, expected: str) -> None:
    out, _ = run(text)
    assert out == expected


def test_library_words_elsewhere_stay() -> None:
    # a variable that never reaches -l: its words are not libraries
    text = "NAME = cudart\nSRC = cublas.cu\nall:\n\techo $(NAME) $(SRC)\n"
    out, _ = run(text)
    assert out == text


def test_library_through_a_variable_without_counterpart_is_reported() -> None:
    out, diagnostics = run("LIBS := nvidia-ml\nL = $(LIBS:%=-l%)\n")
    assert out == "LIBS := nvidia-ml\nL = $(LIBS:%=-l%)\n"
    assert codes(diagnostics) == ["HPY119"]


def test_a_host_compile_of_a_source_using_bfloat16_runs_hipcc() -> None:
    # hip_bf16.h is no plain C++ (g++ stops in its device builtins): hipcc compiles the .cpp as HIP, with the targets
    text = "CXX = g++\napp: main.o k.o\n\tnvcc -arch=sm_80 $^ -o $@\nmain.o: main.cpp\n\t$(CXX) -O2 -c $< -o $@\n"
    context = BuildContext(hip_sources=("main.cpp",), hip_compiled_sources=("main.cpp",))
    out, diagnostics = run(text, context)
    assert "main.o: main.cpp\n\thipcc --offload-arch=$(HIP_ARCH) -O2 -c $< -o $@\n" in out
    assert "__HIP_PLATFORM_AMD__" not in out  # hipcc defines it itself
    assert any(d.code == "HPY118" and "main.cpp compiled by hipcc instead of $(CXX)" in d.message for d in diagnostics)


def test_a_host_compile_of_sources_without_bfloat16_keeps_its_compiler() -> None:
    text = "CXX = g++\nmain.o: main.cpp\n\t$(CXX) -O2 -c $< -o $@\nutil.o: util.c\n\tgcc -c util.c\n"
    context = BuildContext(hip_sources=("main.cpp", "util.c"), hip_compiled_sources=("util.c",))
    out, _ = run(text, context)
    assert "\t$(CXX) -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include -O2 -c $< -o $@\n" in out
    # a C source is never compiled as HIP: it keeps its compiler and gets the platform define
    assert "\tgcc -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include -c util.c\n" in out


def test_make_built_in_rule_for_a_source_using_bfloat16_gets_hipcc_for_its_object() -> None:
    text = "app: main.o sum.o k.o\n\tnvcc -arch=sm_80 $^ -o $@\nk.o: k.cu\n\tnvcc -arch=sm_80 -c k.cu\n"
    context = BuildContext(hip_sources=("main.cpp", "sum.cpp"), hip_compiled_sources=("sum.cpp",))
    out, diagnostics = run(text, context)
    assert "CPPFLAGS += -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include\n" in out
    assert out.endswith("sum.o: CXX = hipcc --offload-arch=$(HIP_ARCH)\n")
    assert "main.o: CXX" not in out
    assert out.startswith("# AMD GPU targets") and "HIP_ARCH ?= gfx90a\n" in out
    assert any(d.code == "HPY118" and d.message.startswith("sum.cpp compiled by hipcc") for d in diagnostics)


def test_a_rule_compiling_c_and_bfloat16_cxx_by_hipcc_defines_the_platform_for_the_c() -> None:
    text = "OBJ = a.o b.o\napp: $(OBJ) k.o\n\tnvcc -arch=sm_80 $^ -o $@\n%.o: %.c %.cpp\n\tg++ -c $< -o $@\n"
    context = BuildContext(hip_sources=("a.c", "b.cpp"), hip_compiled_sources=("b.cpp",))
    out, _ = run(text, context)
    assert "\thipcc --offload-arch=$(HIP_ARCH) -D__HIP_PLATFORM_AMD__ -c $< -o $@\n" in out


def test_a_flags_value_that_runs_on_into_a_command_word_is_no_compiler() -> None:
    # the continuation carries a recipe-like line into CFLAGS: nvcc there is a word of a flag list, and joining
    # --default-stream with its value must not make it the variable's command on a second translation
    text = "CFLAGS += -DUSE_GPU --default-stream per-thread \\\n\tnvcc $(INC) x.c \\\n  -o x $(LIBS)\n"
    out, _ = run(text)  # run() translates the output again and asserts nothing changes
    assert "nvcc $(INC) x.c" in out
