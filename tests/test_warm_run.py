"""The warm path: a run over files the last run with the same settings already translated reuses what its
manifest recorded, sends no job to a worker, and prints, writes and reports exactly what a run without
the manifest does. Real runs of the command line (in-process, so that the jobs handed to the workers
can be counted)."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

from hipify.cli.cli import main
from hipify.machinery.supervise import LATER, Supervisor

COMMON = """#pragma once
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) return; } while (0)
"""
MID = '#pragma once\n#include "common.cuh"\ninline void sync_all() { cudaDeviceSynchronize(); }\n'
A = '#include "common.cuh"\n__global__ void k(float* p) { p[0] = 1; }\nvoid a() { float* p; CHECK(cudaMalloc(&p, 4)); k<<<1, 1>>>(p); }\n'
B = '#include "mid.h"\nvoid b() { cudaStream_t s; cudaStreamCreate(&s); sync_all(); cudaFooBarUnknown(); }\n'
C = "#include <cuda_runtime.h>\nvoid c() { cudaEvent_t e; cudaEventCreate(&e); cudaEventDestroy(e); }\n"


def settle() -> None:
    """Let the clock move past the files' times: a file changed in the clock tick a run looks at it could change
    again unseen, so the manifest does not vouch for it and the next run reads it again."""
    time.sleep(0.05)


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str
    jobs: tuple[str, ...]  # "scan:NAME" / "process:NAME" for every job a worker was sent


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    for name, text in (("common.cuh", COMMON), ("mid.h", MID), ("a.cu", A), ("b.cu", B), ("c.cu", C)):
        (src / name).write_text(text)
    settle()
    return src


@pytest.fixture
def hipify(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> HipifyRunner:
    monkeypatch.chdir(tmp_path)
    return HipifyRunner(tmp_path / "cache", monkeypatch, capsys)


class HipifyRunner:
    """Runs the command line with a result cache of its own, counting the jobs sent to workers."""

    def __init__(self, cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        self.cache = cache
        self.capsys = capsys
        self.sent: list[str] = []
        real_map = Supervisor.map

        def counting_map(supervisor: Supervisor, jobs: Iterable, on_failure):  # type: ignore[no-untyped-def]
            def counted():  # type: ignore[no-untyped-def]
                for job in jobs:  # as the supervisor takes them (it reads its jobs as the workers need more)
                    if job is not LATER:  # the scan's source waits for results: no job
                        self.sent.append(f"{job.fn.__name__}:{Path(job.arg.path).name}")
                    yield job

            return real_map(supervisor, counted(), on_failure)

        monkeypatch.setattr(Supervisor, "map", counting_map)

    def __call__(self, *args: str | Path, cache: bool = True) -> Run:
        self.sent.clear()
        self.capsys.readouterr()
        argv = ["--engine", "regex", "-j", "1", *(["--cache-dir", str(self.cache)] if cache else ["--no-cache"])]
        code = main([*argv, *map(str, args)])
        captured = self.capsys.readouterr()
        return Run(code, captured.out, captured.err, tuple(self.sent))

    def forget_manifests(self) -> None:
        shutil.rmtree(self.cache / "runs", ignore_errors=True)


def contents(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def processed(run: Run) -> set[str]:
    return {job.split(":", 1)[1] for job in run.jobs if job.startswith(("process:", "translate_and_write:"))}


def scanned(run: Run) -> set[str]:
    return {job.split(":", 1)[1] for job in run.jobs if job.startswith("scan:")}


@pytest.mark.parametrize(
    "mode",
    [("--out-dir", "mirror"), ("--check",), ("--examine",), ("--out-dir", "mirror", "--rename-extensions")],
    ids=["out-dir", "check", "examine", "rename"],
)
def test_a_warm_run_sends_no_job_and_prints_writes_and_reports_what_a_run_without_it_does(
    hipify: HipifyRunner, tree: Path, tmp_path: Path, mode: tuple[str, ...]
) -> None:
    report = tmp_path / "report.json"
    cold = hipify(*mode, "--report", report, tree)
    assert processed(cold) == {"common.cuh", "mid.h", "a.cu", "b.cu", "c.cu"}
    mirror = tmp_path / "mirror"
    cold_files = contents(mirror) if mirror.exists() else {}
    hipify.forget_manifests()  # what a warm run printed before the manifest: every result from the result cache
    cached = hipify(*mode, "--report", report, tree)
    cached_report = json.loads(report.read_text())
    warm = hipify(*mode, "--report", report, tree)
    assert warm.jobs == ()
    assert (warm.code, warm.out, warm.err) == (cached.code, cached.out, cached.err)
    assert (warm.code, warm.err) == (cold.code, cold.err)  # --examine's table counts the results from a cache
    assert "HPY104" in warm.err  # findings are printed again, from the manifest
    assert json.loads(report.read_text()) == cached_report
    if mirror.exists():
        assert contents(mirror) == cold_files


def test_a_diff_sends_only_the_files_whose_diff_it_prints(hipify: HipifyRunner, tree: Path) -> None:
    (tree / "plain.h").write_text("int plain(void);\n")  # nothing to translate: no diff
    settle()
    cold = hipify("--diff", tree)
    warm = hipify("--diff", tree)
    assert processed(warm) == {"common.cuh", "mid.h", "a.cu", "b.cu", "c.cu"}
    assert (warm.code, warm.out, warm.err) == (cold.code, cold.out, cold.err)


def test_touching_a_header_translates_again_exactly_the_files_that_include_it(
    hipify: HipifyRunner, tree: Path, tmp_path: Path
) -> None:
    hipify("--out-dir", "mirror", tree)
    with (tree / "common.cuh").open("a") as handle:
        handle.write("// touched\n")
    settle()
    again = hipify("--out-dir", "mirror", "--report", "again.json", tree)
    assert scanned(again) == {"common.cuh"}
    # mid.h includes it, b.cu includes mid.h; c.cu includes neither
    assert processed(again) == {"common.cuh", "mid.h", "a.cu", "b.cu"}
    summary = json.loads((tmp_path / "again.json").read_text())["summary"]
    assert summary["files"] - summary["cached"] == 4
    fresh = hipify("--out-dir", "fresh", tree, cache=False)
    assert fresh.code == again.code
    assert contents(tmp_path / "mirror") == contents(tmp_path / "fresh")
    assert hipify("--out-dir", "mirror", tree).jobs == ()


def test_an_edit_that_keeps_the_size_is_seen(hipify: HipifyRunner, tree: Path, tmp_path: Path) -> None:
    hipify("--out-dir", "mirror", tree)
    target = tree / "c.cu"
    before = target.stat()
    target.write_text(C.replace("cudaEventDestroy(e)", "cudaEventRecord(e) "))  # same length
    assert target.stat().st_size == before.st_size
    again = hipify("--out-dir", "mirror", tree)
    assert processed(again) == {"c.cu"}
    assert "hipEventRecord(e)" in (tmp_path / "mirror" / "c.cu").read_text()
    # the old modification time put back: the change time still tells
    target.write_text(C.replace("cudaEventDestroy(e)", "cudaEventQuery(e)  "))
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (target.stat().st_size, target.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    again = hipify("--out-dir", "mirror", tree)
    assert processed(again) == {"c.cu"}
    assert "hipEventQuery(e)" in (tmp_path / "mirror" / "c.cu").read_text()


def test_an_output_removed_or_edited_is_written_again(hipify: HipifyRunner, tree: Path, tmp_path: Path) -> None:
    hipify("--out-dir", "mirror", tree)
    written = contents(tmp_path / "mirror")
    (tmp_path / "mirror" / "a.cu").unlink()
    (tmp_path / "mirror" / "c.cu").write_text("edited by hand\n")
    again = hipify("--out-dir", "mirror", tree)
    assert processed(again) == {"a.cu", "c.cu"}
    assert contents(tmp_path / "mirror") == written


def test_a_header_appearing_where_an_include_is_searched_first_is_seen(
    hipify: HipifyRunner, tree: Path, tmp_path: Path
) -> None:
    first, second = tmp_path / "inc-first", tmp_path / "inc-second"
    first.mkdir()
    second.mkdir()
    (second / "cfg.h").write_text("#define USE_STREAMS 1\n")
    (tree / "c.cu").write_text('#include "cfg.h"\n' + C)
    settle()
    flags = ("-I", first, "-I", second, "--out-dir", "mirror", tree)
    hipify(*flags)
    assert hipify(*flags).jobs == ()
    (first / "cfg.h").write_text("#define USE_STREAMS 0\n")  # outside the walked tree: only the include graph sees it
    again = hipify(*flags)
    assert scanned(again) == {"cfg.h"}
    assert processed(again) == {"c.cu"}


def test_a_new_input_is_translated_and_the_others_reused(hipify: HipifyRunner, tree: Path) -> None:
    hipify("--out-dir", "mirror", tree)
    (tree / "d.cu").write_text(C.replace("void c()", "void d()"))
    again = hipify("--out-dir", "mirror", tree)
    assert scanned(again) == {"d.cu"}
    assert processed(again) == {"d.cu"}


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty"])
def test_a_damaged_manifest_is_ignored_and_replaced(
    hipify: HipifyRunner, tree: Path, tmp_path: Path, damage: str
) -> None:
    cold = hipify("--out-dir", "mirror", tree)
    written = contents(tmp_path / "mirror")
    manifests = sorted((hipify.cache / "runs").iterdir())
    assert manifests
    for path in manifests:
        data = path.read_bytes()
        assert data
        path.write_bytes({"garbage": b"not a pickle", "truncated": data[: len(data) // 2], "empty": b""}[damage])
    fallback = hipify("--out-dir", "mirror", tree)
    assert processed(fallback) == {"common.cuh", "mid.h", "a.cu", "b.cu", "c.cu"}  # the ordinary path
    assert (fallback.code, fallback.out, fallback.err) == (cold.code, cold.out, cold.err)
    assert contents(tmp_path / "mirror") == written
    assert hipify("--out-dir", "mirror", tree).jobs == ()  # written anew


def test_other_settings_do_not_use_the_manifest(hipify: HipifyRunner, tree: Path) -> None:
    hipify("--out-dir", "mirror", tree)
    assert processed(hipify("--out-dir", "mirror", "--roc", tree)) == {"common.cuh", "mid.h", "a.cu", "b.cu", "c.cu"}
    assert processed(hipify("--out-dir", "other", tree)) == {"common.cuh", "mid.h", "a.cu", "b.cu", "c.cu"}
    assert hipify("--out-dir", "mirror", tree).jobs == ()


def test_no_cache_keeps_no_manifest(hipify: HipifyRunner, tree: Path) -> None:
    hipify("--out-dir", "mirror", tree, cache=False)
    again = hipify("--out-dir", "mirror", tree, cache=False)
    assert processed(again) == {"common.cuh", "mid.h", "a.cu", "b.cu", "c.cu"}
    assert not hipify.cache.exists()


def test_in_place_reuses_files_it_left_unchanged(hipify: HipifyRunner, tree: Path) -> None:
    hipify("--in-place", "--no-backup", tree)  # rewrites every file: their stat changes
    settle()
    hipify("--in-place", "--no-backup", tree)  # translates the translations: nothing changes
    translated = contents(tree)
    third = hipify("--in-place", "--no-backup", tree)
    assert third.jobs == ()
    assert contents(tree) == translated


def test_a_file_changed_as_the_run_looked_at_it_is_read_again(hipify: HipifyRunner, tree: Path) -> None:
    target = tree / "c.cu"
    target.write_text(C + "\n")
    soon = time.time_ns() + 200_000_000  # as if it changed while the run looked at it
    os.utime(target, ns=(soon, soon))
    hipify("--out-dir", "mirror", tree)  # cannot vouch for c.cu
    assert processed(hipify("--out-dir", "mirror", tree)) == {"c.cu"}


def test_an_output_file_is_reused_while_it_is_what_was_written(
    hipify: HipifyRunner, tree: Path, tmp_path: Path
) -> None:
    first = hipify("-o", "out.cu", tree / "c.cu")
    second = hipify("-o", "out.cu", tree / "c.cu")
    assert second.jobs == ()
    assert (second.code, second.out, second.err) == (first.code, first.out, first.err)
    written = (tmp_path / "out.cu").read_bytes()
    (tmp_path / "out.cu").unlink()
    assert processed(hipify("-o", "out.cu", tree / "c.cu")) == {"c.cu"}
    assert (tmp_path / "out.cu").read_bytes() == written


def test_what_an_interrupted_run_left_in_the_mirror_is_removed_as_a_write_would(
    hipify: HipifyRunner, tree: Path, tmp_path: Path
) -> None:
    hipify("--out-dir", "mirror", tree)
    # A temporary file of a run that died (pid 2**22 + 1 is above Linux's pid_max: no such process).
    leftover = tmp_path / "mirror" / f".a.cu.{2**22 + 1}.abcdefgh.hipify-tmp"
    leftover.write_text("half a file")
    assert hipify("--out-dir", "mirror", tree).jobs == ()
    assert not leftover.exists()
