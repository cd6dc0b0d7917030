"""The limits of a run on the CPU: the CPU seconds a program uses (with a wall-clock backstop), and run lines scaled
down only when asked, by a stated rule; a real build through HIP-CPU where it is there (else skipped, saying why)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_cpu_run import hip_cpu

from hipify.validate.corpus import Program, load_program
from hipify.validate.cpu_limits import Limits, run_limited
from hipify.validate.cpu_run import PASS, TIMEOUT, c_compiler, missing_inputs, run_translation, translate_for_cpu
from hipify.validate.runline import RunLine, makefile_sources, run_line, scale_argument, scaled

# --- the CPU-time limit


def test_a_busy_program_is_stopped_by_its_cpu_seconds_not_the_clock() -> None:
    outcome = run_limited([sys.executable, "-c", "while True: pass"], Path.cwd(), Limits(1, 120))
    assert outcome.status is None and outcome.stopped_by == "cpu"
    assert "used its 1 CPU s" in outcome.describe_stop(Limits(1, 120))


def test_a_waiting_program_is_stopped_by_the_wall_clock_backstop() -> None:
    outcome = run_limited([sys.executable, "-c", "import time; time.sleep(60)"], Path.cwd(), Limits(30, 1))
    assert outcome.status is None and outcome.stopped_by == "wall"
    assert "wall-clock backstop of 1 s" in outcome.describe_stop(Limits(30, 1))


def test_status_and_output_come_back_within_the_limits(tmp_path: Path) -> None:
    script = "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"
    outcome = run_limited([sys.executable, "-c", script], tmp_path, Limits.of_cpu(30))
    assert (outcome.status, outcome.output, outcome.stopped_by) == (3, "out\nerr\n", "")
    assert outcome.stdout == "out\n"  # what is judged: a log on stderr is not the program's output


def test_the_backstop_is_several_times_the_cpu_limit() -> None:
    assert Limits.of_cpu(100).wall_seconds == 400
    assert Limits.of_cpu(5).wall_seconds == 65  # at least a minute beyond it


# --- scaling a run line


def test_only_integers_from_2048_are_scaled_keeping_their_alignment() -> None:
    assert scale_argument("10000", 0.1) == "992"  # 10000 = 16 * 625: stays a multiple of 16
    assert scale_argument("1048576", 0.1) == "104448"  # 104857.6 down to a multiple of 1024
    assert scale_argument("4096", 0.01) == "1024"  # never below its alignment
    for word in ("1024", "256", "100", "-n", "3.5e6", "--size=100000", "0x10000"):
        assert scale_argument(word, 0.1) == word


def test_scaling_a_run_line_rewrites_its_text_and_factor_one_changes_nothing() -> None:
    line = RunLine("main", ("-n", "65536", "256", "100"), "./main -n 65536 256 100")
    assert scaled(line, 1) is line
    small = scaled(line, 0.25)
    assert small.arguments == ("-n", "16384", "256", "100") and small.text == "./main -n 16384 256 100"
    with pytest.raises(ValueError):
        scaled(line, 2)


def test_validate_refuses_a_scale_outside_zero_to_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hipify.validate.cli import validate_main

    argv = ["--run", "--run-on", "cpu", "--no-amd", "--run-scale", "2", "--hip-cpu", str(tmp_path)]
    assert validate_main([*argv, "--only", "memory_basic"]) == 2
    assert "--run-scale must be in (0, 1], not 2" in " ".join(capsys.readouterr().err.split())


def test_sources_named_by_wildcard_patterns(tmp_path: Path) -> None:
    for name in ("src/a.cc", "src/b.cu", "src/c.cu", "src/notes.txt"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("")
    (tmp_path / "Makefile").write_text(
        "SRC_DIR = src\nCC_FILES := $(wildcard $(SRC_DIR)/*.cc)\nCU_FILES := $(wildcard $(SRC_DIR)/*.cu)\n"
        "run: main\n\t./main 10\n"
    )
    assert makefile_sources(tmp_path / "Makefile") == ("src/a.cc", "src/b.cu", "src/c.cu")
    (tmp_path / "Makefile").write_text("source = src/*.cu extra.cu\n")
    assert makefile_sources(tmp_path / "Makefile") == ("src/b.cu", "src/c.cu", "extra.cu")


# --- a real program through HIP-CPU: too big as written, passing when scaled

SIZED_PROGRAM = r"""
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void fill(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i % 3;
}

int main(int argc, char** argv) {
  int n = std::atoi(argv[1]);
  volatile unsigned long spin = 0;
  while (n > 50000) ++spin;  // as written, the size is more than the CPU limit allows
  int* d;
  cudaMalloc(&d, n * sizeof(int));
  fill<<<(n + 255) / 256, 256>>>(d, n);
  int* h = (int*)std::malloc(n * sizeof(int));
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i];
  long want = 0;
  for (int i = 0; i < n; ++i) want += i % 3;
  std::printf("n=%d %s\n", n, sum == want ? "PASS" : "FAIL");
  return 0;
}
"""


def test_a_run_past_its_cpu_seconds_is_timeout_and_passes_when_scaled(tmp_path: Path) -> None:
    hc = hip_cpu()
    root = tmp_path / "sized"
    root.mkdir()
    (root / "main.cu").write_text(SIZED_PROGRAM)
    (root / "Makefile").write_text("program = main\nsource = main.cu\n\nrun: $(program)\n\t./$(program) 100000 256\n")
    assert run_line(root / "Makefile") == RunLine("main", ("100000", "256"), "./main 100000 256")
    (tmp_path / "work").mkdir()
    tr = translate_for_cpu(load_program(root), "regex", tmp_path / "work")
    limits = Limits.of_cpu(2)
    as_written = run_translation(tr, hc, limits, {})
    assert as_written.result == TIMEOUT and "used its 2 CPU s" in as_written.reason, as_written.reason
    retried = run_translation(tr, hc, limits, {}, retry_scale=0.1)
    assert retried.result == PASS, retried.reason + retried.translated_output
    assert "scaled by 0.1 from `./main 100000 256`" in retried.reason and "[at scale 1: TIMEOUT" in retried.reason
    assert retried.translated_output == "n=9984 PASS"


def test_sources_of_the_objects_a_makefile_links(tmp_path: Path) -> None:
    for name in ("main.cu", "kernel/k.cu", "util/timer.c", "unused.cu"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("")
    (tmp_path / "Makefile").write_text(
        "main: ./main.o \\\n  ./kernel/k.o ./util/timer.o\n\tnvcc ./main.o ./kernel/k.o ./util/timer.o -o main\n"
        "%.o: %.cu\n\tnvcc -c $< -o $@\n"
    )
    assert makefile_sources(tmp_path / "Makefile") == ("main.cu", "kernel/k.cu", "util/timer.c")


def test_a_run_line_naming_inputs_in_missing_folders_is_not_run(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    program = Program("p", tmp_path, (), (), ())
    line = RunLine("main", ("../inputs/graph.txt", "data/out.txt", "-o", "x/y", "100", "read a/b; quit"), "")
    assert missing_inputs(line, program) == ["../inputs/graph.txt", "x/y"]  # data/out.txt may be an output
    assert missing_inputs(None, program) == []


def test_plain_c_units_are_compiled_as_c_beside_the_cpp_ones() -> None:
    assert (c_compiler("g++"), c_compiler("clang++"), c_compiler("/usr/bin/g++")) == ("gcc", "clang", "/usr/bin/gcc")
