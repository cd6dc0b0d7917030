"""``validate`` asks its toolchain for what a build needs besides hipcc (make, CMake, the host compilers, the link
files of the libraries a program uses) before it judges a program: what is missing is the toolchain's problem, said
with the command that completes it, and the program is "not judged", never failed. ``validate --setup`` completes
an existing chroot. Here with a toolchain of our own making (a directory of commands), where each part can be taken
away; the real chroot is exercised by the build tests, which skip with the same words when it lacks a part."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hipify.cli.cli import main
from hipify.validate import rocm_chroot
from hipify.validate.parts import (
    CMAKE,
    HOST_C,
    HOST_CXX,
    MAKE,
    NOT_JUDGED,
    build_parts,
    lacking,
    libraries_included,
    link_part,
    probe,
)
from hipify.validate.rocm_chroot import DEBOOTSTRAP_STAMP, READY_STAMP, Host, Plan, check_host, setup
from hipify.validate.toolchain import Toolchain, default_chroot

HIPCC = """#!/bin/sh
# A stand-in hipcc: names a HIP version, finds link files in $LIBS, compiles nothing (an empty object).
case "$1" in
  --version) echo "HIP version: 6.4.43484"; exit 0;;
  -print-file-name=*) name="${1#-print-file-name=}"
    if [ -e "$LIBS/$name" ]; then echo "$LIBS/$name"; else echo "$name"; fi; exit 0;;
esac
while [ $# -gt 0 ]; do [ "$1" = "-o" ] && : > "$2"; shift; done
"""


def _toolchain(tmp_path: Path, commands: tuple[str, ...], libs: tuple[str, ...] = ()) -> tuple[Toolchain, Path]:
    """A host toolchain whose PATH holds ``sh``, a stand-in hipcc and ``commands`` (stand-ins that succeed)."""
    bin_dir, lib_dir = tmp_path / "bin", tmp_path / "lib"
    bin_dir.mkdir(parents=True)
    lib_dir.mkdir()
    (bin_dir / "sh").symlink_to(shutil.which("sh") or "/bin/sh")
    for name, text in (("hipcc", HIPCC), *((c, "#!/bin/sh\nexit 0\n") for c in commands)):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    for lib in libs:
        (lib_dir / lib).write_text("")
    env = {"PATH": str(bin_dir), "LIBS": str(lib_dir)}
    return Toolchain("custom", (str(bin_dir / "hipcc"),), "6.4.43484", (), env=env), bin_dir


def test_what_a_build_needs() -> None:
    assert build_parts("make", ()) == (MAKE, HOST_C, HOST_CXX)
    assert build_parts("cmake", ["hipcub", "hipblas"]) == (CMAKE, HOST_C, HOST_CXX, link_part("hipblas"))
    assert link_part("hipcub") is None  # header-only


def test_the_libraries_a_translation_includes() -> None:
    texts = ['#include <hipblas/hipblas.h>\n#include "hipfft/hipfft.h"\n', "// hipsparse/hipsparse.h\n"]
    assert libraries_included(texts) == {"hipblas", "hipfft"}  # a comment that names a header includes nothing


def test_a_toolchain_is_asked_for_its_parts(tmp_path: Path) -> None:
    tc, _ = _toolchain(tmp_path, ("make", "cc"), libs=("libhipblas.so",))
    missing = probe(tc).missing
    assert {"cmake", "c++", "g++", "libhipfft.so"} <= missing
    assert not {"make", "cc", "libhipblas.so"} & missing
    assert lacking(tc, build_parts("make", ["hipblas"])) == (
        f"the toolchain ({tc.describe()}) lacks a host C++ compiler (c++, g++): "
        "install them (Debian/Ubuntu: `apt-get install g++`)"
    )
    assert lacking(tc, (MAKE, HOST_C)) == ""


def test_a_chroot_is_completed_by_setup() -> None:
    from hipify.validate.parts import completion

    # a chroot of an older release is completed as that release's (else setup would bring the newest one's packages)
    tc = Toolchain("rocm-chroot", ("chroot-prefix", "hipcc"), "6.4", (), chroot="/srv/rocm")
    want = "`hipify-py validate --setup --rocm 6.4 --rocm-chroot /srv/rocm` (as root) completes it"
    assert completion(tc, (HOST_CXX,)) == want
    at_its_default = Toolchain("rocm-chroot", ("chroot-prefix", "hipcc"), "6.4", (), chroot=default_chroot("6.4"))
    assert completion(at_its_default, (HOST_CXX,)) == "`hipify-py validate --setup --rocm 6.4` (as root) completes it"
    newest = Toolchain("rocm-chroot", ("chroot-prefix", "hipcc"), "7.2", (), chroot=default_chroot())
    assert completion(newest, (HOST_CXX,)) == "`hipify-py validate --setup` (as root) completes it"


MAKEFILE = "app: main.cu\n\tnvcc -arch=sm_80 main.cu -o app\n"


def test_validate_says_a_build_is_not_judged_when_the_toolchain_lacks_a_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tc, bin_dir = _toolchain(tmp_path / "tc", ("cc", "c++", "g++"))  # no make
    project = tmp_path / "app"
    project.mkdir()
    (project / "main.cu").write_text("#include <cuda_runtime.h>\n__global__ void k() {}\nint main() { return 0; }\n")
    (project / "Makefile").write_text(MAKEFILE)
    monkeypatch.setenv("PATH", str(bin_dir))  # the toolchain's commands, and no others
    monkeypatch.setenv("LIBS", tc.env["LIBS"])
    report = tmp_path / "v.json"
    argv = ["validate", str(project), "--hipcc", str(bin_dir / "hipcc"), "--engine", "regex", "--arch", "gfx90a"]
    code = main([*argv, "-j", "1", "--json", str(report)])
    err = " ".join(capsys.readouterr().err.split())
    assert code == 2  # the toolchain's problem: nothing failed, something was not judged
    assert "lacks make (make): install them (Debian/Ubuntu: `apt-get install make`)" in err
    assert "builds with their own build files are not judged" in err and "1 not judged" in err
    results = json.loads(report.read_text())
    assert [r["result"] for r in results["results"]] == ["PASS"]  # each source compiles: hipcc alone judges that
    (build,) = results["builds"]
    assert build["not_judged"].startswith("the toolchain") and not build["linked"]


def test_validate_judges_a_program_whose_needs_it_has(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tc, bin_dir = _toolchain(tmp_path / "tc", ("make", "cc", "c++", "g++"))
    project = tmp_path / "app"
    project.mkdir()
    (project / "main.cu").write_text("__global__ void k() {}\nint main() { return 0; }\n")
    (project / "Makefile").write_text(MAKEFILE)
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("LIBS", tc.env["LIBS"])
    argv = ["validate", str(project), "--hipcc", str(bin_dir / "hipcc"), "--engine", "regex", "--arch", "gfx90a"]
    code = main([*argv, "-j", "1", "--json", str(tmp_path / "v.json")])
    assert "not judged" not in capsys.readouterr().err
    (build,) = json.loads((tmp_path / "v.json").read_text())["builds"]
    assert build["not_judged"] == "" and build["linked"] and code == 0  # judged: the stand-in make succeeds


def test_a_missing_library_header_is_not_judged_either(tmp_path: Path) -> None:
    from hipify.validate.corpus import Program
    from hipify.validate.runner import validate_program

    program = Program("p", tmp_path, ("p.cu",), ("p.cu",), (".",), hip_libs=("hipblas",))
    tc = Toolchain("custom", ("hipcc",), "6.4", (str(tmp_path / "include"),))
    (result,) = validate_program(program, "regex", tc, ("gfx90a",))
    assert result.result == NOT_JUDGED and "hipblas headers not found" in result.reason


# --- validate --setup completes what is there -------------------------------------------------------------


def _debian_system(root: Path) -> None:
    (root / "usr/bin").mkdir(parents=True)
    (root / "usr/bin/apt-get").write_text("")
    (root / "var/lib/dpkg").mkdir(parents=True)
    (root / "var/lib/dpkg/status").write_text("")


def test_a_debian_system_made_elsewhere_is_completed_not_bootstrapped_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = Plan(tmp_path / "rocm")
    _debian_system(plan.root)
    assert plan.has_base_system()
    # no room for a new system is asked for one that is there
    check_host(plan, Host(euid=0, which=lambda t: f"/usr/bin/{t}", free_bytes=lambda _: 0))
    ran: list[list[str]] = []
    monkeypatch.setattr(rocm_chroot, "_run", lambda cmd, say, env=None: ran.append(list(cmd)))
    said: list[str] = []
    rocm_chroot.debootstrap(plan, said.append)
    assert ran == [] and said == [f"- Debian base system: already in {plan.root}"]
    assert (plan.root / DEBOOTSTRAP_STAMP).exists()


def test_a_system_debootstrap_left_half_made_is_not_taken_for_one(tmp_path: Path) -> None:
    plan = Plan(tmp_path / "rocm")
    _debian_system(plan.root)
    (plan.root / "debootstrap").mkdir()
    assert not plan.has_base_system()


def test_a_stamped_chroot_that_lost_a_part_is_completed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plan = Plan(tmp_path / "rocm")
    _debian_system(plan.root)
    (plan.root / "usr/bin/hipcc").write_text("")
    (plan.root / READY_STAMP).write_text(plan.digest() + "\n")
    steps: list[str] = []
    monkeypatch.setattr(Plan, "lacks", lambda self: () if steps else (HOST_CXX,))  # until the steps have run
    monkeypatch.setattr(rocm_chroot, "STEPS", (lambda p, say: steps.append("ran"),))
    said: list[str] = []
    host = Host(euid=0, which=lambda t: f"/usr/bin/{t}", free_bytes=lambda _: 0)
    assert setup(plan, said.append, host) == 0
    assert (
        said[0]
        == f"validate --setup: the ROCm chroot at {plan.root} lacks a host C++ compiler (c++, g++): completing it"
    )
    assert steps == ["ran"]


def test_a_chroot_that_still_lacks_a_part_is_not_stamped_ready(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plan = Plan(tmp_path / "rocm")
    _debian_system(plan.root)
    monkeypatch.setattr(Plan, "lacks", lambda self: (link_part("hipblas"),))
    monkeypatch.setattr(rocm_chroot, "STEPS", ())
    said: list[str] = []
    assert setup(plan, said.append, Host(euid=0, which=lambda t: f"/usr/bin/{t}", free_bytes=lambda _: 0)) == 1
    assert (
        said[-1] == f"validate --setup: the ROCm chroot at {plan.root} still lacks hipblas's link file (libhipblas.so)"
    )
    assert not (plan.root / READY_STAMP).exists()
