"""CLI tests: every output mode and exit code, run in-process through main(argv)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hipify.cli.cli import main

KERNEL = """#include <cuda_runtime.h>
#include "util.cuh"

__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }

int main() {
    float *d = nullptr;
    cudaMalloc(&d, 64 * sizeof(float));  // cudaMalloc in a comment stays
    scale<<<1, 64>>>(d, 2.0f);
    cudaDeviceSynchronize();
    cudaFree(d);
    return 0;
}
"""
UTIL = """#pragma once
#include <cstdio>
inline void check(cudaError_t e) { if (e != cudaSuccess) std::puts(cudaGetErrorString(e)); }
"""
PLAIN = "int add(int a, int b) { return a + b; }\n"


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "src" / "main.cu").write_text(KERNEL)
    (root / "src" / "util.cuh").write_text(UTIL)
    (root / "src" / "plain.cpp").write_text(PLAIN)
    (root / "Makefile").write_text("app: src/main.cu\n\tnvcc -arch=sm_70 -o app src/main.cu\n")
    return root


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "cache"))


def snapshot(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_single_file_to_stdout(tree: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    assert main(["--engine", "regex", str(tree / "src" / "main.cu")]) == 0
    out = capsysbinary.readouterr().out.decode()
    assert "hipMalloc(&d, 64 * sizeof(float));  // cudaMalloc in a comment stays" in out
    assert "#include <hip/hip_runtime.h>" in out and "cudaFree" not in out


def test_output_file_and_nothing_else_written(tree: Path, tmp_path: Path) -> None:
    before = snapshot(tree)
    target = tmp_path / "out" / "main.hip"
    assert main(["--engine", "regex", "-o", str(target), str(tree / "src" / "main.cu")]) == 0
    assert "hipFree(d)" in target.read_text()
    assert snapshot(tree) == before


def test_in_place_keeps_backup_and_is_idempotent(tree: Path) -> None:
    src = tree / "src" / "main.cu"
    os.chmod(src, 0o640)
    assert main(["--engine", "regex", "--in-place", str(tree)]) == 0
    assert (tree / "src" / "main.cu.prehip").read_text() == KERNEL
    assert "hipDeviceSynchronize" in src.read_text()
    assert oct(src.stat().st_mode & 0o777) == oct(0o640)
    assert (tree / "src" / "plain.cpp").read_text() == PLAIN
    assert not (tree / "src" / "plain.cpp.prehip").exists()
    first = snapshot(tree)
    assert main(["--engine", "regex", "--in-place", str(tree)]) == 0
    assert snapshot(tree) == first


def test_in_place_no_backup(tree: Path) -> None:
    assert main(["--engine", "regex", "--inplace", "--no-backup", str(tree / "src" / "main.cu")]) == 0
    assert not list(tree.rglob("*.prehip"))


def test_out_dir_mirrors_tree_and_leaves_input_alone(tree: Path, tmp_path: Path) -> None:
    before = snapshot(tree)
    out = tmp_path / "hip"
    assert main(["--engine", "regex", "--out-dir", str(out), str(tree)]) == 0
    # the whole tree: the build file too, so the mirror builds as it is
    assert sorted(snapshot(out)) == ["Makefile", "src/main.cu", "src/plain.cpp", "src/util.cuh"]
    assert (out / "src" / "plain.cpp").read_bytes() == PLAIN.encode()
    assert "\thipcc --offload-arch=$(HIP_ARCH) -o app src/main.cu" in (out / "Makefile").read_text()
    assert "hipError_t" in (out / "src" / "util.cuh").read_text()
    assert snapshot(tree) == before


def test_out_dir_sources_only(tree: Path, tmp_path: Path) -> None:
    out = tmp_path / "hip"
    assert main(["--engine", "regex", "--out-dir", str(out), "--sources-only", str(tree)]) == 0
    assert sorted(snapshot(out)) == ["src/main.cu", "src/plain.cpp", "src/util.cuh"]


def test_out_dir_copy_other_files_and_rename(tree: Path, tmp_path: Path) -> None:
    (tree / "src" / "main.cu").write_text(KERNEL.replace('"util.cuh"', '"util.cuh"\n#include "other.cu"'))
    (tree / "src" / "other.cu").write_text("__global__ void k() {}\n")
    out = tmp_path / "hip"
    assert (
        main(["--engine", "regex", "--out-dir", str(out), "--rename-extensions", "--copy-other-files", str(tree)]) == 0
    )
    files = sorted(snapshot(out))
    assert files == ["Makefile", "src/main.hip", "src/other.hip", "src/plain.cpp", "src/util.cuh"]
    assert '#include "other.hip"' in (out / "src" / "main.hip").read_text()


def test_jobs_output_identical(tree: Path, tmp_path: Path) -> None:
    for i in range(12):
        (tree / "src" / f"k{i}.cu").write_text(KERNEL.replace("scale", f"scale{i}"))
    assert main(["--engine", "regex", "-j", "1", "--out-dir", str(tmp_path / "a"), str(tree)]) == 0
    assert main(["--engine", "regex", "-j", "2", "--out-dir", str(tmp_path / "b"), str(tree)]) == 0
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")


def test_diff_is_git_applicable_and_exits_1(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(tree)], check=True)
    cwd = os.getcwd()
    os.chdir(tree)
    try:
        assert main(["--engine", "regex", "--diff", "src"]) == 1
        patch = capsys.readouterr().out
        assert patch.startswith("--- a/src/main.cu\n+++ b/src/main.cu\n")
        subprocess.run(["git", "apply", "--check", "-"], input=patch, text=True, check=True)
        subprocess.run(["git", "apply", "-"], input=patch, text=True, check=True)
        assert main(["--engine", "regex", "--diff", "src"]) == 0
    finally:
        os.chdir(cwd)


def test_check_exit_codes(tree: Path, tmp_path: Path) -> None:
    assert main(["--engine", "regex", "--check", str(tree)]) == 1
    plain = tmp_path / "plain_only"
    plain.mkdir()
    (plain / "a.cpp").write_text(PLAIN)
    assert main(["--engine", "regex", "--check", str(plain)]) == 0


def test_check_flags_untranslated_cuda(tmp_path: Path) -> None:
    src = tmp_path / "u.cpp"
    src.write_text("void f() { cudaSomethingThatDoesNotExist(); }\n")
    assert main(["--engine", "regex", "--check", str(src)]) == 1


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["-o", "x", "a.cu", "b.cu"],
        ["--rocm", "six", "a.cu"],
        ["--no-such-flag"],
        ["--rename-extensions", "a.cu"],
    ],
)
def test_usage_errors_exit_2(argv: list[str], tree: Path) -> None:
    os.chdir(tree / "src")
    for name in ("a.cu", "b.cu"):
        Path(name).write_text("")
    assert main(argv) == 2


def test_several_files_need_an_output_mode(tree: Path) -> None:
    assert main([str(tree)]) == 2


def test_missing_path_exit_2(tmp_path: Path) -> None:
    assert main(["--check", str(tmp_path / "nope.cu")]) == 2


def test_bad_files_are_reported_and_left_alone(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    latin = tree / "src" / "latin.cu"
    latin.write_bytes(b"// caf\xe9\ncudaMalloc(&p, 1);\n")
    binary = tree / "src" / "blob.h"
    binary.write_bytes(b"\0\1\2cuda")
    assert main(["--engine", "regex", "--in-place", str(tree)]) == 0
    err = capsys.readouterr().err
    assert "latin.cu: warning: " in err and "[HPY307]" in err
    assert "blob.h: warning: looks like a binary file" in err and "[HPY302]" in err
    translated = latin.read_bytes()  # translated, the byte that is not UTF-8 kept as it was
    assert translated.startswith(b"// caf\xe9\n") and translated.endswith(b"\nhipMalloc(&p, 1);\n")
    assert "hipMalloc" in (tree / "src" / "main.cu").read_text()
    cp = tree / "src" / "cp.cu"
    cp.write_bytes(b"// caf\xe9\ncudaMalloc(&p, 1);\n")
    assert main(["--engine", "regex", "--in-place", "--encoding", "ascii", str(cp)]) == 2  # as asked: refused
    assert "cp.cu: error: " in capsys.readouterr().err
    assert main(["--engine", "regex", "--in-place", "--encoding", "latin-1", str(cp)]) == 0
    assert cp.read_bytes().endswith(b"\nhipMalloc(&p, 1);\n")


def test_explicit_undecodable_file_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cu"
    bad.write_bytes(b"\xff\xfe cuda")
    assert main(["--engine", "regex", str(bad)]) == 2


def test_crlf_and_bom_survive(tmp_path: Path) -> None:
    src = tmp_path / "w.cpp"
    src.write_bytes(b"\xef\xbb\xbf#include <cuda_runtime.h>\r\nvoid f() { cudaDeviceReset(); }\r\n")
    assert main(["--engine", "regex", "--in-place", str(src)]) == 0
    assert src.read_bytes() == b"\xef\xbb\xbf#include <hip/hip_runtime.h>\r\nvoid f() { hipDeviceReset(); }\r\n"


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    import io

    class FakeStdin:
        buffer = io.BytesIO(b"void f() { cudaDeviceReset(); }\n")

    monkeypatch.setattr(sys, "stdin", FakeStdin())
    assert main(["--engine", "regex", "-"]) == 0
    out = capsysbinary.readouterr().out
    assert out == b"#include <hip/hip_runtime.h>\n\nvoid f() { hipDeviceReset(); }\n"


def test_examine_writes_nothing_and_prints_stats(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(tree)
    assert main(["--engine", "regex", "--examine", str(tree)]) == 0
    captured = capsys.readouterr()
    assert "CONVERTED refs" in captured.out  # the statistics are what --examine outputs
    assert "hipify-py: 4 files scanned, 3 would change (nothing written)" in captured.err
    assert snapshot(tree) == before


@pytest.mark.parametrize("fmt", ["json", "sarif", "csv", "md", "html"])
def test_reports(tree: Path, tmp_path: Path, fmt: str) -> None:
    (tree / "src" / "u.cu").write_text("void f() { cudaNotARealApi(); }\n")
    report = tmp_path / f"report.{fmt}"
    assert main(["--engine", "regex", "--examine", "--report", str(report), str(tree)]) == 0
    text = report.read_text()
    if fmt == "json":
        data = json.loads(text)
        assert data["summary"]["files"] == 5 and data["converted"]["cudaMalloc"] == 1
        assert any(d["code"] == "HPY104" for d in data["diagnostics"])
    elif fmt == "sarif":
        data = json.loads(text)
        assert data["version"] == "2.1.0"
        assert any(r["ruleId"] == "HPY104" for r in data["runs"][0]["results"])
    else:
        assert "cudaNotARealApi" in text


def test_cache_makes_second_run_hit(tree: Path, tmp_path: Path) -> None:
    def cached(*extra: str) -> int:
        report = tmp_path / "r.json"
        assert main(["--engine", "regex", "--examine", "--report", str(report), *extra, str(tree)]) == 0
        return int(json.loads(report.read_text())["summary"]["cached"])

    assert cached() == 0
    assert cached() == 4
    assert cached("--no-cache") == 0
    (tree / "src" / "main.cu").write_text(KERNEL + "// changed\n")
    assert cached() == 3
    assert cached("--roc") == 0  # other options, other key


def test_console_script_runs() -> None:
    proc = subprocess.run([sys.executable, "-m", "hipify", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("hipify-py ")
    proc = subprocess.run([sys.executable, "-m", "hipify", "--help"], capture_output=True, text=True)
    assert "exit codes" in proc.stdout and "--hip-kernel-execution-syntax" in proc.stdout


def test_report_includes_validation_results(tree: Path, tmp_path: Path) -> None:
    results = {
        "tool": "hipify-py validate",
        "results": [
            {
                "program": "memory_basic",
                "engine": "regex",
                "arch": "gfx90a",
                "result": "FAIL",
                "reason": "",
                "first_error": {
                    "original_file": "memory_basic.cu",
                    "original_line": 12,
                    "message": "use of undeclared",
                },
            },
            {"program": "cub_primitives", "engine": "clang", "arch": "gfx1030", "result": "PASS", "reason": ""},
        ],
    }
    (tmp_path / "v.json").write_text(json.dumps(results))
    md = tmp_path / "r.md"
    assert (
        main(
            ["--engine", "regex", "--examine", "--report", str(md), "--validation", str(tmp_path / "v.json"), str(tree)]
        )
        == 0
    )
    text = md.read_text()
    assert "| memory_basic | regex | gfx90a | FAIL | memory_basic.cu:12 use of undeclared |" in text
    assert "| cub_primitives | clang | gfx1030 | PASS |  |" in text
    (tmp_path / "bad.json").write_text("[]")
    assert (
        main(
            [
                "--engine",
                "regex",
                "--examine",
                "--report",
                str(md),
                "--validation",
                str(tmp_path / "bad.json"),
                str(tree),
            ]
        )
        == 2
    )
