"""``hipify-py validate --setup`` (the ROCm chroot builder) and the messages when no compiler is found.

The chroot build itself (debootstrap + apt, ~2 minutes, 1.3 GB) is exercised by `.ci/install_hip.sh`, which
runs it; here: the host checks and their messages, the idempotent fast path, argument handling, and what
`validate` says when it has no hipcc.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify.cli import main
from hipify.validate.rocm_chroot import (
    HEADERS_ONLY,
    INSTALL,
    READY_STAMP,
    Host,
    Plan,
    SetupError,
    check_host,
    setup,
)
from hipify.validate.toolchain import default_chroot, no_toolchain_message


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
    assert default_chroot() == "/srv/rocm"
    monkeypatch.delenv("ROCM_CHROOT")
    assert default_chroot() == "/tmp/rocm-sid"


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
