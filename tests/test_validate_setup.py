"""``hipify-py validate --setup`` (the ROCm chroot builder) and the messages when no compiler is found.

The chroot build itself (debootstrap + apt, ~2 minutes, 1.3 GB) is exercised by `.ci/install_hip.sh`, which
runs it; here: the host checks and their messages, the idempotent fast path, argument handling, and what
`validate` says when it has no hipcc.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from hipify.cli.cli import main
from hipify.validate.debparts import (
    CMAKE,
    HEADER,
    SHARED_OBJECT,
    STATIC_LIBRARY,
    extract_build_parts,
    member_role,
    parse_simulated_installs,
)
from hipify.validate.rocm_chroot import (
    HEADERS_ONLY,
    INSTALL,
    READY_STAMP,
    SELFTEST_CMAKE,
    SELFTEST_LINK,
    Host,
    Plan,
    SetupError,
    check_host,
    configure,
    dpkg_owned,
    plan_for,
    setup,
)
from hipify.validate.toolchain import chroot_release, default_chroot, no_toolchain_message


def _tools(missing: str = "") -> Host:
    return Host(
        euid=0, which=lambda tool: None if tool == missing else f"/usr/bin/{tool}", free_bytes=lambda _: 100 * 1024**3
    )


def test_packages_cover_every_library_translations_name() -> None:
    assert {"hipcc", "libamdhip64-dev", "libhipblas-common-dev", "libomp-21-dev", "libroctx-dev"} <= set(INSTALL)
    for family in ("hipblas", "hipblaslt", "hipsparse", "hipsolver", "miopen", "rccl", "rocblas", "rocsolver"):
        assert f"lib{family}-dev" in HEADERS_ONLY
    assert not set(INSTALL) & set(HEADERS_ONLY)


def test_not_root_is_refused_with_the_command_to_run(tmp_path: Path) -> None:
    plan = Plan(tmp_path / "rocm")
    with pytest.raises(SetupError, match="needs root") as info:
        check_host(plan, Host(euid=1000, which=lambda t: f"/usr/bin/{t}", free_bytes=lambda _: 10**12))
    assert f"sudo hipify-py validate --setup --rocm-chroot {plan.root}" in str(info.value)


@pytest.mark.parametrize(("tool", "package"), [("debootstrap", "debootstrap"), ("unshare", "util-linux")])
def test_missing_tool_names_the_package(tmp_path: Path, tool: str, package: str) -> None:
    with pytest.raises(SetupError, match=f"needs `{tool}`.*apt-get install {package}"):
        check_host(Plan(tmp_path / "rocm"), _tools(missing=tool))


def test_too_little_disk_space_is_refused(tmp_path: Path) -> None:
    host = Host(euid=0, which=lambda t: f"/usr/bin/{t}", free_bytes=lambda _: 512 * 1024**2)
    with pytest.raises(SetupError, match=r"about 3 GB free.*0\.5 GB free"):
        check_host(Plan(tmp_path / "rocm"), host)


def test_a_host_with_everything_passes(tmp_path: Path) -> None:
    check_host(Plan(tmp_path / "rocm"), _tools())


def _ready_chroot(root: Path, plan: Plan) -> None:
    (root / "usr/bin").mkdir(parents=True)
    (root / "usr/bin/hipcc").write_text("")
    (root / READY_STAMP).write_text(plan.digest() + "\n")


def test_a_ready_chroot_is_left_alone(tmp_path: Path) -> None:
    plan = Plan(tmp_path / "rocm")
    _ready_chroot(plan.root, plan)
    said: list[str] = []
    # a non-root host: a ready chroot needs no checks and no commands
    assert setup(plan, said.append, Host(euid=1000, which=lambda _: None)) == 0
    assert said == [f"validate --setup: ROCm chroot ready at {plan.root} (nothing to do)"]


def test_other_package_lists_make_a_chroot_not_ready(tmp_path: Path) -> None:
    plan = Plan(tmp_path / "rocm")
    _ready_chroot(plan.root, plan)
    assert plan.is_ready()
    assert not Plan(plan.root, headers_only=(*HEADERS_ONLY, "libfoo-dev")).is_ready()
    assert not Plan(plan.root, install=INSTALL[:-1]).is_ready()


def test_setup_reports_a_host_problem_and_exits_2(tmp_path: Path) -> None:
    said: list[str] = []
    assert setup(Plan(tmp_path / "rocm"), said.append, _tools(missing="debootstrap")) == 2
    assert said == [
        "validate: validate --setup needs `debootstrap`: install it (Debian/Ubuntu: `apt-get install debootstrap`)"
    ]
    assert not (tmp_path / "rocm").exists()  # nothing was created


def test_cli_setup_uses_the_chroot_folder_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    root = tmp_path / "chroot"
    assert main(["validate", "--setup", "--rocm-chroot", str(root), "--mirror", "http://example.invalid/debian"]) == 2
    err = capsys.readouterr().err
    assert "needs root" in err and f"--rocm-chroot {root}" in err


def test_default_chroot_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROCM_CHROOT", "/srv/rocm")
    monkeypatch.setenv("ROCM7_CHROOT", "/srv/rocm7")
    assert default_chroot("6.4") == "/srv/rocm"
    assert default_chroot("7.2") == default_chroot() == "/srv/rocm7"  # the newest release by default
    monkeypatch.delenv("ROCM_CHROOT")
    monkeypatch.delenv("ROCM7_CHROOT")
    assert (default_chroot("6.4"), default_chroot("7")) == ("/tmp/rocm-sid", "/tmp/rocm7-sid")
    with pytest.raises(ValueError, match=r"builds ROCm 6\.4, 7\.2"):
        default_chroot("5.7")


def test_each_release_has_its_recipe(tmp_path: Path) -> None:
    sid = plan_for(chroot_release("6.4"), str(tmp_path / "a"))
    experimental = plan_for(chroot_release("7.2"), str(tmp_path / "b"))
    # ROCm 6.4's recipe is the one chroots were built from before there were two (a built one stays ready)
    assert (sid.suite, sid.overlay, sid.install, sid.headers_only) == ("sid", "", INSTALL, HEADERS_ONLY)
    assert sid.digest() == Plan(sid.root).digest()
    assert (experimental.suite, experimental.overlay) == ("sid", "experimental")
    assert "libomp-22-dev" in experimental.install and "libomp-21-dev" not in experimental.install
    assert "libhipsolver-fortran-dev" in experimental.headers_only
    assert experimental.digest() != sid.digest()


def test_an_overlay_suite_is_apt_s_default_release(tmp_path: Path) -> None:
    plan = plan_for(chroot_release("7.2"), str(tmp_path / "root"), "http://mirror.invalid/debian")
    for folder in ("usr/sbin", "etc/apt/apt.conf.d", "etc/apt/sources.list.d", "etc/dpkg/dpkg.cfg.d"):
        (plan.root / folder).mkdir(parents=True)
    configure(plan, lambda _: None)
    assert 'APT::Default-Release "experimental";' in (plan.root / "etc/apt/apt.conf.d/90-hipify").read_text()
    listed = (plan.root / "etc/apt/sources.list.d/experimental.list").read_text()
    assert listed == "deb http://mirror.invalid/debian experimental main\n"


def test_cli_missing_hipcc_names_the_setup_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--hipcc", "/missing/path/hipcc"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "--hipcc /missing/path/hipcc: no such command" in err
    assert "hipify-py validate --setup" in err


def test_cli_missing_chroot_names_the_setup_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--rocm-chroot", str(tmp_path / "none")]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"no hipcc in the ROCm chroot {tmp_path / 'none'}" in err
    assert f"hipify-py validate --setup --rocm-chroot {tmp_path / 'none'}" in err


def test_cli_without_any_compiler_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no hipcc on PATH
    assert main(["validate", "--toolchain", "host"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "no hipcc found (looked for `hipcc` on PATH)" in err
    assert "hipify-py validate --setup" in err and "install ROCm" in err


def test_message_when_the_chroot_exists_but_we_are_not_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "usr/bin").mkdir(parents=True)
    (tmp_path / "usr/bin/hipcc").write_text("")
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    assert "needs root" in no_toolchain_message(rocm_chroot_dir=str(tmp_path))


# --- what is taken from a library's .deb: headers, CMake files, link stubs; never its GPU kernels ---------


@pytest.mark.parametrize(
    ("member", "role"),
    [
        ("./usr/include/hipblas/hipblas.h", HEADER),
        ("./usr/lib/x86_64-linux-gnu/cmake/hipblas/hipblas-config.cmake", CMAKE),
        ("./usr/share/cmake/rocthrust/rocthrust-config.cmake", CMAKE),
        ("./usr/lib/cmake/foo/foo-config.cmake", CMAKE),
        ("./usr/lib/x86_64-linux-gnu/librocblas.so.4.4", SHARED_OBJECT),
        ("./usr/lib/x86_64-linux-gnu/librocblas.so", SHARED_OBJECT),
        ("./usr/lib/aarch64-linux-gnu/libhipblas.so.2", SHARED_OBJECT),
        ("./usr/lib/x86_64-linux-gnu/liborigami.a", STATIC_LIBRARY),
        # the GPU kernels, beside or below the library folder
        ("./usr/lib/x86_64-linux-gnu/rocblas/4.4.1/library/Kernels.so-000-gfx90a-xnack-.hsaco", None),
        ("./usr/lib/x86_64-linux-gnu/rocblas/4.4.1/library/TensileLibrary_lazy_gfx90a.dat", None),
        ("./usr/lib/x86_64-linux-gnu/hipblaslt/library/libfoo.so", None),
        ("./usr/lib/x86_64-linux-gnu/rocblas/4.4.1/library/TensileLibrary_gfx90a.co", None),
        ("./usr/share/doc/librocblas4/copyright", None),
        ("./usr/share/lintian/overrides/librocblas4", None),
        ("./usr/lib/x86_64-linux-gnu/libnot-a-library.txt", None),
    ],
)
def test_member_roles(member: str, role: str | None) -> None:
    assert member_role(member) == role


def _deb_data(entries: list[tuple[str, bytes | str]]) -> io.BytesIO:
    """A .deb's data archive as `dpkg-deb --fsys-tarfile` writes it: bytes are files, str are symlink targets."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, content in entries:
            info = tarfile.TarInfo(name)
            if isinstance(content, str):
                info.type, info.linkname = tarfile.SYMTYPE, content
                tar.addfile(info)
            else:
                info.size, info.mode = len(content), 0o644
                tar.addfile(info, io.BytesIO(content))
    buf.seek(0)
    return buf


def _mark_stub(path: Path) -> None:
    path.write_bytes(b"STUB of " + path.read_bytes()[:8])


def test_build_parts_keep_headers_cmake_and_stubs_and_drop_kernels(tmp_path: Path) -> None:
    lib = "usr/lib/x86_64-linux-gnu"
    data = _deb_data(
        [
            ("./usr/include/rocblas/rocblas.h", b"#pragma once\n"),
            (f"./{lib}/cmake/rocblas/rocblas-config.cmake", b"# config\n"),
            (f"./{lib}/librocblas.so.4.4", b"\x7fELF" + b"\0" * 4096),
            (f"./{lib}/librocblas.so.4", "librocblas.so.4.4"),
            (f"./{lib}/rocblas/4.4.1/library/Kernels.so-000-gfx90a.hsaco", b"kernel"),
            ("./usr/share/doc/librocblas4/copyright", b"text"),
        ]
    )
    parts = extract_build_parts(data, tmp_path, _mark_stub)
    assert parts.files == ("usr/include/rocblas/rocblas.h", f"{lib}/cmake/rocblas/rocblas-config.cmake")
    assert parts.stubs == (f"{lib}/librocblas.so.4.4",) and parts.links == (f"{lib}/librocblas.so.4",)
    assert (tmp_path / lib / "librocblas.so.4.4").read_bytes() == b"STUB of \x7fELF\0\0\0\0"
    assert os.readlink(tmp_path / lib / "librocblas.so.4") == "librocblas.so.4.4"
    assert not (tmp_path / lib / "rocblas").exists() and not (tmp_path / "usr/share").exists()
    assert not list(tmp_path.rglob("*.hipify-part"))


def test_an_installed_library_is_never_replaced_by_a_stub(tmp_path: Path) -> None:
    lib = tmp_path / "usr/lib/x86_64-linux-gnu"
    lib.mkdir(parents=True)
    (lib / "libfmt.so.11.1").write_bytes(b"real library")
    (lib / "libmine.so.1").write_bytes(b"an older stub of ours")
    data = _deb_data(
        [
            ("./usr/lib/x86_64-linux-gnu/libfmt.so.11.1", b"packaged"),
            ("./usr/lib/x86_64-linux-gnu/libmine.so.1", b"new"),
        ]
    )
    parts = extract_build_parts(data, tmp_path, _mark_stub, ours=frozenset({"usr/lib/x86_64-linux-gnu/libmine.so.1"}))
    assert parts.kept_existing == ("usr/lib/x86_64-linux-gnu/libfmt.so.11.1",)
    assert (lib / "libfmt.so.11.1").read_bytes() == b"real library"
    assert (lib / "libmine.so.1").read_bytes() == b"STUB of new"


def test_simulated_installs_are_read_in_order() -> None:
    out = "Inst libfmt11 (11.1.1+ds1-2 Debian:unstable [amd64])\nInst librocblas4 (6.4.4-4 Debian:unstable [amd64])\n"
    out += "Conf libfmt11 (11.1.1+ds1-2 Debian:unstable [amd64])\n"
    assert parse_simulated_installs(out) == ["libfmt11", "librocblas4"]


def test_the_environment_builds_whole_programs() -> None:
    # make and CMake build translated programs; g++ is the C/C++ compiler Makefiles and CMake's C/CXX call
    assert {"make", "cmake", "g++"} <= set(INSTALL)
    for family in ("hipblas", "hipsparse", "hipsolver", "rocblas", "rocsolver", "rocsparse"):
        assert f"-l{family}" in SELFTEST_LINK or f"lib{family}-dev" in HEADERS_ONLY
    assert "find_package(${package} REQUIRED)" in SELFTEST_CMAKE


def test_a_new_recipe_version_makes_a_chroot_not_ready(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plan = Plan(tmp_path / "rocm")
    _ready_chroot(plan.root, plan)
    monkeypatch.setattr("hipify.validate.rocm_chroot.BUILD_PARTS_VERSION", "999")
    assert not plan.is_ready()


@pytest.mark.skipif(not shutil.which("llvm-ifs") or not shutil.which("cc"), reason="needs llvm-ifs and a C compiler")
def test_a_link_stub_links_like_the_library(tmp_path: Path) -> None:
    """A program links against the stub made by llvm-ifs as against the real shared object."""
    (tmp_path / "lib.c").write_text("int answer(void) { return 42; }\n")
    (tmp_path / "main.c").write_text("int answer(void);\nint main(void) { return answer() == 42 ? 0 : 1; }\n")
    real = tmp_path / "real" / "libanswer.so"
    real.parent.mkdir()
    subprocess.run(
        ["cc", "-shared", "-fPIC", "-Wl,-soname,libanswer.so", str(tmp_path / "lib.c"), "-o", str(real)], check=True
    )
    stub = tmp_path / "stub" / "libanswer.so"
    stub.parent.mkdir()
    subprocess.run(["llvm-ifs", f"--output-elf={stub}", str(real)], check=True)
    exe = tmp_path / "main"
    subprocess.run(["cc", str(tmp_path / "main.c"), f"-L{stub.parent}", "-lanswer", "-o", str(exe)], check=True)
    assert subprocess.run([str(exe)], env={"LD_LIBRARY_PATH": str(real.parent)}, check=False).returncode == 0


def test_files_of_installed_packages_are_known(tmp_path: Path) -> None:
    """A link stub later installed for real by a package (apt-get install librocblas4) is the package's."""
    info = tmp_path / "var/lib/dpkg/info"
    info.mkdir(parents=True)
    (info / "librocblas4:amd64.list").write_text("/.\n/usr\n/usr/lib/x86_64-linux-gnu/librocblas.so.4.4\n")
    (info / "librocblas4:amd64.md5sums").write_text("x  usr/lib/other\n")
    owned = dpkg_owned(tmp_path)
    assert "usr/lib/x86_64-linux-gnu/librocblas.so.4.4" in owned and "usr/lib/other" not in owned
