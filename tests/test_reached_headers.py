"""Headers the inputs include whose extension the walk does not take (``.hu``, ``.tcc``) are sources all the same
(hipify/run/reached.py): left as CUDA, they keep ``#include <cuda.h>`` and every file including them stops there."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

UTILS = """\
#pragma once
#include <cuda_runtime.h>
inline void check(cudaError_t e) { if (e != cudaSuccess) throw e; }
"""
MORE = """\
template <typename T> void fill(T* p, int n) { cudaMemset(p, 0, n * sizeof(T)); }
"""
MAIN = """\
#include "inc/utils.hu"
#include <inc/more.tcc>
__global__ void k(float* p) { p[threadIdx.x] = 1; }
int main() { float* p; check(cudaMalloc(&p, 4)); fill(p, 1); k<<<1, 1>>>(p); return 0; }
"""
NOTES = "cudaMalloc is named here, but no source includes this file\n"


def _tree(root: Path) -> Path:
    src = root / "src"
    (src / "inc").mkdir(parents=True)
    (src / "inc" / "utils.hu").write_text(UTILS)
    (src / "inc" / "more.tcc").write_text(MORE)
    (src / "inc" / "notes.txt").write_text(NOTES)
    (src / "main.cu").write_text(MAIN)
    return src


def _hipify(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "hipify", "--engine", "regex", *map(str, args)]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_included_headers_of_other_extensions_are_translated(tmp_path: Path) -> None:
    src = _tree(tmp_path)
    done = _hipify("--out-dir", tmp_path / "out", src, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    assert "#include <hip/hip_runtime.h>" in (out / "inc" / "utils.hu").read_text()  # quoted include
    assert "hipMemset(" in (out / "inc" / "more.tcc").read_text()  # angled, found in the tree
    assert (out / "inc" / "notes.txt").read_text() == NOTES  # included by nobody: copied as it is
    assert "hipMalloc(" in (out / "main.cu").read_text()
    assert (src / "inc" / "utils.hu").read_text() == UTILS  # the input is left alone


def test_an_excluded_header_stays_excluded(tmp_path: Path) -> None:
    src = _tree(tmp_path)
    done = _hipify("--out-dir", tmp_path / "out", "--exclude", "*.hu", src, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "out" / "inc" / "utils.hu").exists()
    assert "hipMemset(" in (tmp_path / "out" / "inc" / "more.tcc").read_text()


def test_in_place_keeps_a_backup_of_a_reached_header(tmp_path: Path) -> None:
    src = _tree(tmp_path)
    done = _hipify("--in-place", src, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "hipError_t" in (src / "inc" / "utils.hu").read_text()
    assert (src / "inc" / "utils.hu.prehip").read_text() == UTILS


def test_a_header_outside_the_walked_directories_is_not_written(tmp_path: Path) -> None:
    src = _tree(tmp_path)
    outside = tmp_path / "vendor"
    outside.mkdir()
    (outside / "ext.hu").write_text(UTILS)
    (src / "main.cu").write_text('#include "ext.hu"\n' + MAIN)
    done = _hipify("--in-place", "-I", outside, src, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (outside / "ext.hu").read_text() == UTILS and not (outside / "ext.hu.prehip").exists()
    assert "hipError_t" in (src / "inc" / "utils.hu").read_text()
