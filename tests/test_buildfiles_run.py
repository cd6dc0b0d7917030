"""Build files in a run: every output mode, findings, reports, cache; and translated projects that really build
(real make and ROCm's hipcc, skipped with the reason where they are absent)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import rocm_toolchain

from hipify.buildfiles.build_phase import build_facts
from hipify.cli.cli import main
from hipify.options import Options
from hipify.validate.parts import HOST_CXX, MAKE, build_parts

MAKEFILE = """\
# the CUDA build
NVCC ?= nvcc
CFLAGS := -O2 -arch=sm_70 -Xcompiler -Wall

app: main.cu
\t$(NVCC) $(CFLAGS) main.cu -o app -lcublas
"""
KERNEL = "__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }\nint main() { cudaDeviceSynchronize(); }\n"


@pytest.fixture(autouse=True)
def _no_user_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("HIPIFY_PY_CACHE_DIR", raising=False)  # a user's own cache folder would be shared by tests


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "Makefile").write_text(MAKEFILE)
    (root / "main.cu").write_text(KERNEL)
    return root


def test_stdout_and_output_file(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(project / "Makefile")]) == 0
    out = capsys.readouterr().out
    assert "NVCC ?= hipcc\n" in out and "-lhipblas" in out and "HIP_ARCH ?= gfx90a\n" in out
    target = tmp_path / "Makefile.hip"
    assert main([str(project / "Makefile"), "-o", str(target), "--offload-arch", "gfx942"]) == 0
    assert target.read_text() == out.replace("HIP_ARCH ?= gfx90a", "HIP_ARCH ?= gfx942")


def test_in_place_keeps_a_backup_and_a_second_run_changes_nothing(project: Path) -> None:
    assert main(["--in-place", str(project)]) == 0
    assert (project / "Makefile.prehip").read_text() == MAKEFILE
    first = (project / "Makefile").read_text()
    assert "hipcc" in first and "hipDeviceSynchronize" in (project / "main.cu").read_text()
    assert main(["--in-place", str(project)]) == 0
    assert (project / "Makefile").read_text() == first
    assert not (project / "Makefile.prehip.prehip").exists()


def test_out_dir_mirror_with_renamed_sources(project: Path, tmp_path: Path) -> None:
    (project / "Makefile").write_text(MAKEFILE.replace("main.cu", "$(SRC)") + "SRC = main.cu\n")
    out = tmp_path / "mirror"
    assert main(["--out-dir", str(out), "--rename-extensions", str(project)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["Makefile", "main.hip"]
    assert "SRC = main.hip\n" in (out / "Makefile").read_text()


def test_diff_and_check(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--diff", str(project)]) == 1
    diff = capsys.readouterr().out
    assert "\n-NVCC ?= nvcc\n" in diff and "\n+NVCC ?= hipcc\n" in diff and "/proj/Makefile\n" in diff
    assert main(["--check", str(project)]) == 1
    assert (project / "Makefile").read_text() == MAKEFILE  # nothing written


def test_findings_are_gcc_form_and_in_the_report(project: Path, tmp_path: Path) -> None:
    (project / "Makefile").write_text(MAKEFILE + "dump: app\n\tcuobjdump -sass app\n")
    report = tmp_path / "report.json"
    proc = subprocess.run(
        [sys_executable(), "-m", "hipify", "--check", "--report", str(report), "Makefile"],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )
    assert proc.returncode == 1
    assert "Makefile:8:2: warning: this step runs cuobjdump" in proc.stderr and "[HPY119]" in proc.stderr
    data = json.loads(report.read_text())
    assert any(d["code"] == "HPY119" for d in data["diagnostics"])
    (entry,) = data["files"]
    assert entry["engine"] == "make" and entry["changed"] and entry["unconverted"] == 1


def sys_executable() -> str:
    import sys

    return sys.executable


def test_a_tree_without_cuda_in_its_build_files_is_left_byte_identical(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    root.mkdir()
    makefile = "CC = gcc\nCFLAGS = -O2 -arch x86_64 # -arch=sm_70\n\napp: a.c\n\t$(CC) $(CFLAGS) a.c -o app -lm\n"
    (root / "Makefile").write_bytes(makefile.encode())
    (root / "rules.mk").write_bytes(b"X = 1\r\n")
    out = tmp_path / "out"
    assert main(["--out-dir", str(out), str(root)]) == 0
    assert (out / "Makefile").read_bytes() == makefile.encode()
    assert (out / "rules.mk").read_bytes() == b"X = 1\r\n"
    assert main(["--check", str(root)]) == 0


def test_the_second_run_hits_the_cache(project: Path, tmp_path: Path) -> None:
    def cached() -> int:
        report = tmp_path / "r.json"
        assert main(["--examine", "--report", str(report), str(project)]) == 0
        return int(json.loads(report.read_text())["summary"]["cached"])

    assert cached() == 0
    assert cached() == 2


def test_no_build_files_copies_them(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "mirror"
    assert main(["--out-dir", str(out), "--no-build-files", str(project)]) == 0
    assert (out / "Makefile").read_text() == MAKEFILE


def test_bad_offload_arch_is_a_usage_error(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--offload-arch", "sm_70", str(project / "Makefile")]) == 2
    assert "not an AMD GPU target: 'sm_70'" in capsys.readouterr().err


def test_a_build_file_is_told_the_families_of_the_sources_near_it(tmp_path: Path) -> None:
    facts = build_facts(
        [str(tmp_path / "a" / "Makefile"), str(tmp_path / "Makefile"), str(tmp_path / "c" / "Makefile")],
        {str(tmp_path / "a" / "x.cu"): frozenset({"blas"}), str(tmp_path / "b" / "y.cu"): frozenset({"fft"})},
        (("x.cu", "x.hip"),),
        (("rand", "why"),),
        Options(roc=True, offload_arch=("gfx942",)),
    )
    a, top, c = (facts[str(p)].build for p in (tmp_path / "a/Makefile", tmp_path / "Makefile", tmp_path / "c/Makefile"))
    assert a is not None and a.families == ("blas",) and a.offload_arch == ("gfx942",) and a.roc
    assert a.renamed == (("x.cu", "x.hip"),) and a.hip_families == ("rand",)
    assert top is not None and top.families == ("blas", "fft")
    assert c is not None and c.families == ("blas", "fft")  # no source there: the project's


# -- real builds -------------------------------------------------------------------------------------------------


def _builder() -> tuple[str, tuple[str, ...]]:
    """(a directory builds must live under, the command prefix that runs make there) or skip with the reason.
    Translated build files target ROCm 6 (hipcc --offload-arch, hipBLAS 2)."""
    from hipify.validate.toolchain import chroot_command

    tc = rocm_toolchain(MAKE)
    if tc.chroot:
        return tc.chroot, (*chroot_command(tc.chroot), "make")
    return tempfile.gettempdir(), ("make",)


@pytest.fixture()
def build_dir() -> Iterator[tuple[Path, Path, tuple[str, ...]]]:
    """(a fresh directory on the host, the same seen by make, the make command)."""
    root, make = _builder()
    base = Path(root, "tmp") if make[0] != "make" else Path(root)
    host = Path(tempfile.mkdtemp(prefix="hipify-build-", dir=base))
    inner = Path("/") / host.relative_to(root) if make[0] != "make" else host
    try:
        yield host, inner, make
    finally:
        shutil.rmtree(host, ignore_errors=True)


def _make(make: tuple[str, ...], inner: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*make, "-C", str(inner), *args], capture_output=True, text=True, timeout=900)


RDC_MAIN = """\
#include <cstdio>
#include <cuda_runtime.h>
extern __device__ int twice(int x);
__global__ void k(int *out) { out[threadIdx.x] = twice(threadIdx.x); }
int main() {
    int *d;
    if (cudaMalloc(&d, 32 * sizeof(int)) != cudaSuccess) { printf("no device\\n"); return 0; }
    k<<<1, 32>>>(d);
    cudaDeviceSynchronize();
    cudaFree(d);
    return 0;
}
"""
RDC_DEV = "__device__ int twice(int x) { return 2 * x; }\n"
RDC_MAKEFILE = """\
NVCC ?= nvcc
ARCH = sm_70
CFLAGS := -std=c++17 -Xcompiler -Wall -arch=$(ARCH) -O2 --use_fast_math -lineinfo --expt-relaxed-constexpr
program = main
source = main.cu dev.cu
obj = $(source:.cu=.o)

$(program): $(obj)
\t$(NVCC) $(CFLAGS) $(obj) -o $@ -L$(CUDA_HOME)/lib64 -lcudart

%.o: %.cu Makefile
\t$(NVCC) $(CFLAGS) -dc $< -o $@

clean:
\trm -f $(program) $(obj)
"""


def test_a_relocatable_device_code_project_builds_and_links(
    build_dir: tuple[Path, Path, tuple[str, ...]], tmp_path: Path
) -> None:
    host, inner, make = build_dir
    src = tmp_path / "rdc"
    src.mkdir()
    (src / "main.cu").write_text(RDC_MAIN)
    (src / "dev.cu").write_text(RDC_DEV)
    (src / "Makefile").write_text(RDC_MAKEFILE)
    out = host / "rdc"
    assert main(["--out-dir", str(out), "--rename-extensions", str(src)]) == 0
    built = _make(make, inner / "rdc")
    assert built.returncode == 0, built.stdout + built.stderr
    assert (out / "main").is_file() and "-fgpu-rdc" in built.stdout
    # without relocatable device code the device function of the other file is missing at link: the test can fail
    (out / "Makefile").write_text((out / "Makefile").read_text().replace("-fgpu-rdc", ""))
    assert _make(make, inner / "rdc", "clean").returncode == 0
    assert _make(make, inner / "rdc").returncode != 0


BLAS_MAIN = """\
#include <cstdio>
#include <cublas_v2.h>
int main() {
    cublasHandle_t handle;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) { printf("no device\\n"); return 0; }
    cublasDestroy(handle);
    return 0;
}
"""
BLAS_MAKEFILE = """\
CC = nvcc
CFLAGS = -O2 -arch=sm_80
LDFLAGS = -lcublas

main: main.cu
\t$(CC) $(CFLAGS) main.cu -o main $(LDFLAGS)
"""


def test_a_cublas_program_links_hipblas(build_dir: tuple[Path, Path, tuple[str, ...]], tmp_path: Path) -> None:
    host, inner, make = build_dir
    rocm_toolchain(*build_parts("make", ["hipblas"]))  # the link needs hipBLAS's shared object (or its stub)
    src = tmp_path / "blas"
    src.mkdir()
    (src / "main.cu").write_text(BLAS_MAIN)
    (src / "Makefile").write_text(BLAS_MAKEFILE)
    assert main(["--out-dir", str(host / "blas"), str(src)]) == 0
    assert "LDFLAGS = -lhipblas\n" in (host / "blas" / "Makefile").read_text()
    built = _make(make, inner / "blas")
    assert built.returncode == 0, built.stdout + built.stderr
    assert (host / "blas" / "main").is_file()


HOST_MAIN = "void launch();\nint main() { launch(); return 0; }\n"
HOST_KERNEL = (
    "#include <cuda_runtime.h>\n__global__ void k() {}\nvoid launch() { k<<<1, 1>>>(); cudaDeviceSynchronize(); }\n"
)
HOST_MAKEFILE = """\
CXX = g++
NVCC = nvcc
app: main.o kernel.o
\t$(CXX) main.o kernel.o -o app -L/usr/local/cuda/lib64 -lcudart
main.o: main.cpp
\t$(CXX) -O2 -c main.cpp -o main.o
kernel.o: kernel.cu
\t$(NVCC) -O2 -arch=sm_70 -c kernel.cu -o kernel.o
"""


def test_a_host_compiler_link_gets_the_hip_runtime(
    build_dir: tuple[Path, Path, tuple[str, ...]], tmp_path: Path
) -> None:
    host, inner, make = build_dir
    rocm_toolchain(MAKE, HOST_CXX)  # the Makefile compiles main.cpp and links with g++
    src = tmp_path / "mixed"
    src.mkdir()
    (src / "main.cpp").write_text(HOST_MAIN)
    (src / "kernel.cu").write_text(HOST_KERNEL)
    (src / "Makefile").write_text(HOST_MAKEFILE)
    assert main(["--out-dir", str(host / "mixed"), str(src)]) == 0
    text = (host / "mixed" / "Makefile").read_text()
    assert "-L/opt/rocm/lib -lamdhip64" in text and "\t$(CXX) -O2 -c main.cpp" in text
    built = _make(make, inner / "mixed")
    assert built.returncode == 0, built.stdout + built.stderr


def test_discovery_finds_build_files_but_not_their_backups(tmp_path: Path) -> None:
    from hipify.sources.discover import discover

    for name in ("Makefile", "rules.mk", "sub/GNUmakefile", "Makefile.prehip", "Makefile~", "notes.txt", "a.cu"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    found, _ = discover([tmp_path], build_files=True)
    names = sorted(str(f.relative) for f in found)
    assert names == ["Makefile", "a.cu", "rules.mk", "sub/GNUmakefile"]
    found, _ = discover([tmp_path])
    assert sorted(str(f.relative) for f in found) == ["a.cu"]


def test_the_python_api_translates_a_makefile_by_its_name() -> None:
    import hipify

    result = hipify.translate("app: a.cu\n\tnvcc -arch=sm_70 a.cu -o app\n", path="src/Makefile")
    assert result.engine == "make" and "\thipcc --offload-arch=$(HIP_ARCH) a.cu -o app\n" in result.text
    assert hipify.translate("x = nvcc\n", path="notes.txt").text == "x = nvcc\n"


def test_translate_files_tells_a_makefile_about_the_sources(tmp_path: Path) -> None:
    import hipify

    blas = "#include <cublas_v2.h>\nvoid f() { cublasHandle_t h; cublasCreate(&h); }\n"
    makefile = "app: a.cu\n\tnvcc a.cu -lcublas\n"
    texts = {str(tmp_path / "a.cu"): blas, str(tmp_path / "Makefile"): makefile}
    results = hipify.translate_files(texts, Options(roc=True))
    # --roc, but the source keeps hipBLAS's names (rocBLAS lacks cublasCreate's form): the Makefile links hipBLAS
    assert "hipblasCreate" in results[str(tmp_path / "a.cu")].text
    assert results[str(tmp_path / "Makefile")].engine == "make"
    assert "\thipcc --offload-arch=$(HIP_ARCH) a.cu -lhipblas\n" in results[str(tmp_path / "Makefile")].text
    # alone, the Makefile knows only the option
    assert "-lrocblas" in hipify.translate(makefile, str(tmp_path / "Makefile"), Options(roc=True)).text
