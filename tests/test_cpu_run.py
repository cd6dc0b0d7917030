"""validate --run on the CPU through HIP-CPU: verdicts, run lines, the compatibility header's CPU branch, what
HIP-CPU cannot run, and real runs of translated programs (skipped, with the reason, without HIP-CPU or TBB)."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from rich.console import Console

from hipify.compat import HEADER_NAME, INCLUDE_GUARD, load_catalog, render
from hipify.compat.cpu import cpu_entries_used, load_cpu_entries, with_cpu_branch
from hipify.reports.report import Report, render_text
from hipify.validate.corpus import Program, default_corpus_dir, load_program
from hipify.validate.cpu_limits import Limits
from hipify.validate.cpu_needs import needs_before_build, needs_from_build_log
from hipify.validate.cpu_run import NOT_RUN, PASS, counts, names_in, run_all_cpu, translate_for_cpu
from hipify.validate.hipcpu import HipCpu, find, locate
from hipify.validate.run import RunResult
from hipify.validate.runline import makefile_include_dirs, makefile_sources, run_line
from hipify.validate.verdict import judge, output_matches, own_verdict

ARCHIVE = Path(__file__).resolve().parents[1].parent / "shared/tools/hip-cpu.tar.xz"


def hip_cpu() -> HipCpu:
    """HIP-CPU from $HIPIFY_HIP_CPU or ../shared/tools/hip-cpu.tar.xz beside the clone, or the test skips."""
    given = os.environ.get("HIPIFY_HIP_CPU") or (str(ARCHIVE) if ARCHIVE.is_file() else None)
    if given is None:
        pytest.skip(f"HIP-CPU not found: set $HIPIFY_HIP_CPU or put its archive at {ARCHIVE}")
    found, why = find(given)
    if found is None:
        pytest.skip(why)
    return found


# --- verdicts


def test_own_verdict_is_the_last_word_the_program_prints() -> None:
    assert own_verdict("checking...\nPASS\n") == "PASS"
    assert own_verdict("PASS for n=1\nFAIL for n=2\n") == "FAIL"
    assert own_verdict("time 1.2 s\n") is None
    assert own_verdict("PASSED") == "PASS"


def test_judge_exit_status_then_verdict_then_reference() -> None:
    assert judge(0, "x: PASS checksum=1\n", "x: PASS checksum=1") == (True, "")
    assert judge(1, "x: PASS\n", None) == (False, "exit status 1")
    assert judge(0, "FAIL\n", None)[1] == "the program says FAIL"
    assert not judge(0, "x: PASS checksum=2\n", "x: PASS checksum=1")[0]
    assert judge(0, "done\n", None) == (True, "")


def test_reference_tolerance_applies_to_numbers_only() -> None:
    assert output_matches("sum=1.0000001 n=3", "sum=1.0 n=3", 1e-6)
    assert not output_matches("sum=1.0000001 n=3", "sum=1.0 n=3", 0.0)
    assert not output_matches("sum=1.01 n=3", "sum=1.0 n=3", 1e-6)
    assert not output_matches("total=1.0 n=3", "sum=1.0 n=3", 1e-3)
    assert not output_matches("a\nb", "a", 1e-3)


# --- run lines


def test_run_line_and_sources_from_a_makefile(tmp_path: Path) -> None:
    makefile = tmp_path / "Makefile"
    makefile.write_text(
        "program = main\nsource = main.cu \\\n  kernels.cu\nCFLAGS := -I../include -Iutil -I /opt/x\n"
        "$(program): $(source)\n\tnvcc $(CFLAGS) $(source) -o $(program)\n\n"
        "run: $(program)\n\t$(LAUNCHER) ./$(program) 1000 ${N}\nN = 7\n"
    )
    line = run_line(makefile)
    assert line is not None and line.program == "main" and line.arguments == ("1000", "7")
    assert makefile_sources(makefile) == ("main.cu", "kernels.cu")
    assert makefile_include_dirs(makefile) == ("../include", "util")


def test_a_commented_run_line_is_skipped_as_make_and_the_shell_skip_it(tmp_path: Path) -> None:
    makefile = tmp_path / "Makefile"
    makefile.write_text("run: main\n\t#$(LAUNCHER) ./main 512 8192\n\n        # ./main 1 2\n\t./main 8 4096\n")
    line = run_line(makefile)
    assert line is not None and line.arguments == ("8", "4096")
    makefile.write_text("run: main\n\t# ./main 512\nother:\n\t./main 1\n")
    assert run_line(makefile) is None


def test_no_run_target_no_run_line(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("all:\n\techo ./main\n")
    assert run_line(tmp_path / "Makefile") is None


# --- the compatibility header's CPU branch


def test_cpu_branch_holds_what_the_texts_use_with_what_it_needs() -> None:
    names = names_in(["v += __shfl_down_sync(m, v, 1); // __ballot_sync in a comment"])
    assert {e.name for e in cpu_entries_used(names)} == {"cpu_shfl_sync", "cpu_lane"}
    assert cpu_entries_used(names_in(['printf("__syncwarp");'])) == ()


def test_every_cpu_entry_builds_on_earlier_ones() -> None:
    names: set[str] = set()
    for entry in load_cpu_entries():
        assert set(entry.needs) <= names
        names.add(entry.name)


def test_cpu_branch_goes_inside_the_guard_and_is_rewritten_not_repeated() -> None:
    catalog = load_catalog()
    header = render([catalog.entries[0]], (7, 2), catalog)
    once = with_cpu_branch(header, {"__syncwarp"})
    assert once is not None and once.count("__HIP_CPU_RT__") == 2
    assert once.index("hipify-py: CPU branch") < once.rindex(f"#endif  // {INCLUDE_GUARD}")
    again = with_cpu_branch(once, {"x", "max", "a", "b"})
    assert again is not None and "cpu_syncwarp" not in again and "cpu_min_max" in again
    assert with_cpu_branch(once, {"x"}) == header
    assert with_cpu_branch(None, {"x"}) is None
    alone = with_cpu_branch(None, {"__syncwarp"})
    assert alone is not None and alone.startswith(f"// {HEADER_NAME}: generated by hipify-py")


def test_headers_read_from_beside_the_tree_choose_cpu_entries_too(tmp_path: Path) -> None:
    """A port that includes the CUDA folder's header (``-I../x-cuda``) uses what that header names."""
    (tmp_path / "x-cuda").mkdir()
    (tmp_path / "x-cuda/kernels.h").write_text("__device__ int cell(float x) { return __float2int_rd(x); }\n")
    port = tmp_path / "x-hip"
    port.mkdir()
    (port / "main.cu").write_text('#include <hip/hip_runtime.h>\n#include "kernels.h"\nint main() { return 0; }\n')
    program = Program("x-hip", port, ("main.cu",), ("main.cu",), (".", "../x-cuda"))
    work = tmp_path / "work"
    work.mkdir()
    (work / "x-cuda").symlink_to(tmp_path / "x-cuda")
    tr = translate_for_cpu(program, "regex", work)
    assert "// cpu_conversions:" in (tr.tree / HEADER_NAME).read_text()


def test_a_source_that_is_not_utf8_is_translated_and_its_bytes_kept(tmp_path: Path) -> None:
    root = tmp_path / "latin1"
    root.mkdir()
    (root / "main.cu").write_bytes(
        b"// (c) \xa9 2009\n#include <cuda_runtime.h>\nint main() { cudaDeviceSynchronize(); }\n"
    )
    program = Program("latin1", root, ("main.cu",), ("main.cu",), (".",))
    tr = translate_for_cpu(program, "regex", tmp_path)
    out = (tr.tree / "main.cu").read_bytes()
    assert not tr.error and b"\xa9 2009" in out and b"hipDeviceSynchronize" in out


# --- what HIP-CPU cannot run


def test_needs_named_before_building(tmp_path: Path) -> None:
    texts = {
        "a.cu": '#include <hipcub/hipcub.hpp>\n__global__ void k() { asm volatile("s_nop 0"); }\n',
        "b.cu": 'hipTextureObject_t t; // asm(\n#include "b.h"\n#include <hip/hip_cooperative_groups.h>\n',
        "b.h": "",
    }
    needs = needs_before_build(texts, tmp_path)
    assert needs == [
        "hipCUB (no CPU form in HIP-CPU)",
        "inline assembly",
        "<hip/hip_cooperative_groups.h> (HIP-CPU lacks it)",
        "textures (HIP-CPU has no texture units)",
    ]


def test_code_no_build_reads_needs_nothing(tmp_path: Path) -> None:
    """Inline assembly in a branch the translation decided for another build (``#if 0``) is never compiled."""
    text = '__device__ int f(int x) {\n#if 0\n  asm volatile("mov.u32 %0, %0;" : "+r"(x));\n#else\n  x += 1;\n#endif\n  return x;\n}\n'
    assert needs_before_build({"a.cu": text}, tmp_path) == []
    assert needs_before_build({"a.cu": text.replace("#if 0", "#if 1")}, tmp_path) == ["inline assembly"]


def test_needs_from_a_build_log_are_hip_names_only() -> None:
    log = (
        "x.cu:3:5: error: \u2018hipStreamBeginCapture\u2019 was not declared in this scope\n"
        "x.cu:9:1: error: \u2018my_helper\u2019 was not declared in this scope\n"
    )
    assert needs_from_build_log(log) == ["hipStreamBeginCapture (HIP declares it, HIP-CPU does not)"]
    assert needs_from_build_log("x.cu:9:1: error: \u2018my_helper\u2019 was not declared in this scope\n") == []
    assert needs_from_build_log("fatal error: hip/hip_bf16.h: No such file or directory") == [
        "<hip/hip_bf16.h> (HIP-CPU lacks it)"
    ]


def test_a_member_hip_cpus_struct_lacks_is_a_need_and_one_of_the_programs_own_struct_a_failure() -> None:
    gcc = "m.cu:9:20: error: \u2018struct hipDeviceProp_t\u2019 has no member named \u2018managedMemory\u2019\n"
    clang = "m.cu:9:20: error: no member named 'managedMemory' in 'hipDeviceProp_t'\n"
    need = "hipDeviceProp_t::managedMemory (HIP declares it, HIP-CPU's hipDeviceProp_t does not)"
    assert needs_from_build_log(gcc) == needs_from_build_log(clang) == [need]
    assert needs_from_build_log(gcc.replace("hipDeviceProp_t", "params_t")) == []


def test_locate_says_what_is_wrong(tmp_path: Path) -> None:
    root, why = locate(str(tmp_path))
    assert root is None and "is not HIP-CPU" in why


# --- the report


def test_report_shows_run_verdicts_beside_compile_verdicts(tmp_path: Path) -> None:
    report = Report()
    report.validation = [{"program": "p", "engine": "regex", "arch": "gfx90a", "result": "PASS"}]
    report.validation_runs = [
        RunResult("p", "regex", PASS, runtime="cpu (HIP-CPU)").to_json(),
        RunResult("q", "regex", NOT_RUN, "needs hipCUB", runtime="cpu (HIP-CPU)").to_json(),
    ]
    assert report.run_rows() == [
        ("p", "regex", "PASS", "cpu (HIP-CPU)", PASS, ""),
        ("q", "regex", "-", "cpu (HIP-CPU)", NOT_RUN, "needs hipCUB"),
    ]
    text = render_text(report, "md")
    assert "## Run validation" in text and "| q | regex | - | cpu (HIP-CPU) | NOT RUN | needs hipCUB |" in text


def test_counts_keep_not_run_apart() -> None:
    results = [
        RunResult("a", "regex", PASS),
        RunResult("b", "regex", "FAIL"),
        RunResult("c", "regex", NOT_RUN, "needs x"),
        RunResult("d", "regex", "TIMEOUT"),
    ]
    assert counts(results) == {"ran": 3, "passed": 1, "failed": 1, "timed out": 1, "not run": 1}


# --- real runs on the CPU

WARP_PROGRAM = r"""
#include <cstdio>
#include <cuda_runtime.h>

// Warp functions reached by one warp of the block only, a __syncwarp ordering shared memory between lanes, a
// ballot kept in 64 bits, and min/max: the compatibility header's CPU branch.
__global__ void k(const int* in, int* out) {
  __shared__ int partial[8];
  __shared__ int scratch[64];
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int off = warpSize / 2; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffffffffffULL, v, off);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < (int)(blockDim.x / warpSize) ? partial[lane] : 0;
    for (int off = warpSize / 2; off > 0; off /= 2) t += __shfl_xor_sync(0xffffffffffffffffULL, t, off);
    scratch[lane] = lane;
    __syncwarp();
    int neighbour = scratch[(lane + 1) % warpSize];
    unsigned long long odd = __ballot_sync(0xffffffffffffffffULL, neighbour % 2);
    if (lane == 0) out[blockIdx.x] = max(t, 0) + min(__popcll(odd), 1000);
  }
}

int main() {
  const int blocks = 4, threads = 256;
  int h[blocks * threads], r[blocks];
  for (int i = 0; i < blocks * threads; ++i) h[i] = i % 7;
  int *d, *o;
  cudaMalloc(&d, sizeof(h));
  cudaMalloc(&o, sizeof(r));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  k<<<blocks, threads>>>(d, o);
  cudaMemcpy(r, o, sizeof(r), cudaMemcpyDeviceToHost);
  long sum = 0;
  for (int b = 0; b < blocks; ++b) sum += r[b];
  long expected = 0;
  for (int i = 0; i < blocks * threads; ++i) expected += i % 7;
  expected += blocks * 32;  // half of a 64-lane warp's neighbours are odd
  std::printf("warp_cpu: %s %ld\n", sum == expected ? "PASS" : "FAIL", sum);
  return sum == expected ? 0 : 1;
}
"""


def test_translated_programs_run_on_hip_cpu(tmp_path: Path) -> None:
    hc = hip_cpu()
    (tmp_path / "warp_cpu").mkdir()
    (tmp_path / "warp_cpu/warp_cpu.cu").write_text(WARP_PROGRAM)
    programs = [load_program(default_corpus_dir() / "memory_basic"), load_program(tmp_path / "warp_cpu")]
    results = run_all_cpu(
        programs, ["regex"], hc, Console(file=io.StringIO()), Console(stderr=True), Limits.of_cpu(600)
    )
    by_name = {r.program: r for r in results}
    assert by_name["memory_basic"].result == PASS, by_name["memory_basic"].reason
    assert by_name["warp_cpu"].result == PASS, by_name["warp_cpu"].reason + by_name["warp_cpu"].translated_output
    assert by_name["warp_cpu"].translated_output.startswith("warp_cpu: PASS")


def test_a_program_the_cpu_cannot_run_is_not_run_with_the_reason(tmp_path: Path) -> None:
    hc = hip_cpu()
    results = run_all_cpu(
        [load_program(default_corpus_dir() / "cub_primitives")],
        ["regex"],
        hc,
        Console(file=io.StringIO()),
        Console(stderr=True),
        Limits.of_cpu(60),
    )
    assert [(r.result, r.reason) for r in results] == [(NOT_RUN, "needs hipCUB (no CPU form in HIP-CPU)")]
    assert json.loads(json.dumps(results[0].to_json()))["runtime"] == "cpu (HIP-CPU)"


def test_run_on_the_cpu_without_hip_cpu_is_a_setup_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hipify.validate.cli import validate_main

    argv = ["--run", "--run-on", "cpu", "--no-amd", "--hip-cpu", str(tmp_path), "--only", "memory_basic"]
    assert validate_main(argv) == 2
    assert "is not HIP-CPU" in " ".join(capsys.readouterr().err.split())
