"""Where hipcc comes from: Debian's package, a ROCm chroot (``hipify-py validate --setup``), or a command."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_ARCHS = ("gfx90a", "gfx1030")

# HIP library -> headers (relative to an include root) that provide it, newest layout first.
LIB_HEADERS: dict[str, tuple[str, ...]] = {
    "hipblas": ("hipblas/hipblas.h", "hipblas.h"),
    "hipblaslt": ("hipblaslt/hipblaslt.h",),
    "hipfft": ("hipfft/hipfft.h", "hipfft.h"),
    "hiprand": ("hiprand/hiprand.h", "hiprand.h"),
    "hipsparse": ("hipsparse/hipsparse.h", "hipsparse.h"),
    "hipcub": ("hipcub/hipcub.hpp",),
    "hiprtc": ("hip/hiprtc.h",),
    "hipsolver": ("hipsolver/hipsolver.h", "hipsolver.h"),
    "rccl": ("rccl/rccl.h", "rccl.h"),
}
LIB_PACKAGES = {
    "hipblas": "libhipblas-dev",
    "hipblaslt": "libhipblaslt-dev",
    "hipfft": "libhipfft-dev",
    "hiprand": "libhiprand-dev",
    "hipsparse": "libhipsparse-dev",
    "hipcub": "libhipcub-dev",
    "hiprtc": "libamdhip64-dev",
    "hipsolver": "libhipsolver-dev",
    "rccl": "librccl-dev",
}


@dataclass(frozen=True)
class Toolchain:
    name: str  # "rocm-chroot", "debian", "custom"
    hipcc: tuple[str, ...]  # the command that runs hipcc (inside the chroot for "rocm-chroot")
    hip_version: str  # e.g. "6.4.43484"
    include_roots: tuple[str, ...]  # host paths searched for library headers
    chroot: str = ""  # chroot directory; sources must live under it
    env: dict[str, str] = field(default_factory=dict)

    @property
    def rocm_version(self) -> tuple[int, int]:
        m = re.match(r"(\d+)\.(\d+)", self.hip_version)
        return (int(m.group(1)), int(m.group(2))) if m else (6, 4)

    def describe(self) -> str:
        where = f" in {self.chroot}" if self.chroot else ""
        return f"{self.name}: HIP {self.hip_version}{where}"

    def missing_lib(self, lib: str) -> str | None:
        """A reason if ``lib``'s headers are not installed for this compiler, else None."""
        headers = LIB_HEADERS.get(lib)
        if not headers:
            return None
        for root in self.include_roots:
            if any((Path(root) / h).is_file() for h in headers):
                return None
        pkg = LIB_PACKAGES.get(lib, lib)
        if self.chroot:
            hint = f"`{setup_command(self.chroot, self.rocm_version)}` (as root) completes it"
        elif self.name == "debian":
            hint = "Debian 12 does not package it (build the ROCm 6.4 chroot with `hipify-py validate --setup`)"
        else:
            hint = f"install {pkg}"
        return f"{lib} headers not found for {self.describe()} ({headers[0]}): {hint}"

    def inner_path(self, host: str) -> str:
        """A path on this machine (under the chroot) -> as the compiler sees it."""
        if not self.chroot:
            return host
        return "/" + str(Path(host).resolve().relative_to(Path(self.chroot).resolve()))

    def work_root(self) -> str:
        """Where translated trees must be written so that the compiler can read them."""
        if self.chroot:
            root = Path(self.chroot) / "tmp"
            root.mkdir(parents=True, exist_ok=True)
            return str(root)
        return os.environ.get("TMPDIR", "/tmp")


def chroot_command(root: str) -> tuple[str, ...]:
    """Run a command inside ``root`` with /proc mounted in a private mount namespace, so that it goes away with
    the command."""
    script = 'mount -t proc proc "$0/proc" && exec chroot "$0" env HIP_PLATFORM=amd "$@"'
    return ("unshare", "-m", "--propagation", "private", "--", "sh", "-c", script, root)


def _hip_version(cmd: tuple[str, ...], env: dict[str, str]) -> str:
    try:
        out = subprocess.run(
            [*cmd, "--version"], check=False, capture_output=True, text=True, timeout=60, env={**os.environ, **env}
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    m = re.search(r"HIP version:\s*(\S+)", out.stdout + out.stderr)
    return m.group(1) if m else ""


@dataclass(frozen=True)
class ChrootRelease:
    """A ROCm release ``validate --setup --rocm X.Y`` builds a chroot for: the Debian suite it debootstraps, a suite
    on top whose packages win where it has them (Debian experimental carries only what it changes over sid), and
    where the chroot goes (``env``, else ``directory``)."""

    rocm: str
    suite: str
    directory: str
    env: str
    overlay: str = ""
    openmp: str = "libomp-21-dev"  # omp.h of the clang hipcc is built on (a ROCm install has it)
    # packages whose build parts (rocm_chroot.HEADERS_ONLY) this release needs besides the others
    build_parts: tuple[str, ...] = ()

    @property
    def version(self) -> tuple[int, int]:
        major, _, minor = self.rocm.partition(".")
        return (int(major), int(minor or 0))

    def root(self) -> str:
        return os.environ.get(self.env) or self.directory


# Oldest first. ROCm 6.4 is Debian sid's; 7.2 is experimental's (over sid), beside it.
CHROOT_RELEASES: tuple[ChrootRelease, ...] = (
    ChrootRelease("6.4", "sid", "/tmp/rocm-sid", "ROCM_CHROOT"),
    # hipcc 7.2.4 is built on clang 22; hipSOLVER 7.2's CMake package names its Fortran library (roc::hipsolver_fortran)
    ChrootRelease(
        "7.2",
        "sid",
        "/tmp/rocm7-sid",
        "ROCM7_CHROOT",
        overlay="experimental",
        openmp="libomp-22-dev",
        build_parts=("libhipsolver-fortran-dev",),
    ),
)
DEFAULT_CHROOT = CHROOT_RELEASES[0].directory


def chroot_release(rocm: str | None = None) -> ChrootRelease:
    """The release ``rocm`` names (``7`` or ``7.2``; None: the newest, which translation targets by default).
    Raises ValueError naming the releases there are."""
    if rocm is None:
        return CHROOT_RELEASES[-1]
    wanted = rocm.strip()
    for release in reversed(CHROOT_RELEASES):
        if release.rocm == wanted or release.rocm.split(".")[0] == wanted:
            return release
    names = ", ".join(r.rocm for r in CHROOT_RELEASES)
    raise ValueError(f"no ROCm chroot recipe for {rocm!r}: validate --setup builds ROCm {names}")


def default_chroot(rocm: str | None = None) -> str:
    """Where ``validate --setup`` builds the chroot of ``rocm`` (None: the newest release) and where validation
    looks for it: the release's environment variable ($ROCM_CHROOT for 6.4, $ROCM7_CHROOT for 7.2), else its
    folder (/tmp/rocm-sid, /tmp/rocm7-sid)."""
    return chroot_release(rocm).root()


def setup_command(root: str, rocm: tuple[int, int] | None = None) -> str:
    """The command that builds or completes the chroot at ``root`` (of ROCm ``rocm``, when known)."""
    words = "hipify-py validate --setup"
    try:
        release = chroot_release(f"{rocm[0]}.{rocm[1]}" if rocm else None)
    except ValueError:  # a chroot of a release we have no recipe for: completed as the newest one's
        release = chroot_release()
    if rocm and release is not CHROOT_RELEASES[-1]:
        words += f" --rocm {release.rocm}"
    return words + ("" if root == release.root() else f" --rocm-chroot {root}")


def chroot_candidates(rocm: str | None = None) -> list[str]:
    """Chroots with a hipcc, newest release first (only ``rocm``'s when given)."""
    releases = [chroot_release(rocm)] if rocm else list(reversed(CHROOT_RELEASES))
    found = []
    for release in releases:
        for cand in (release.root(), release.directory):
            if cand and Path(cand, "usr/bin/hipcc").exists() and cand not in found:
                found.append(cand)
    return found


def rocm_chroot(root: str) -> Toolchain | None:
    if not Path(root, "usr/bin/hipcc").exists():
        return None
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return None
    cmd = chroot_command(root) + ("hipcc",)
    version = _hip_version(cmd, {})
    if not version:
        return None
    return Toolchain("rocm-chroot", cmd, version, (str(Path(root) / "usr/include"),), chroot=root)


def host_hipcc(command: str | None = None) -> Toolchain | None:
    cmd = tuple(shlex.split(command)) if command else ("hipcc",)
    if not shutil.which(cmd[0]):
        return None
    env = {"HIP_PLATFORM": "amd"}  # nvcc on PATH would make hipcc pick the NVIDIA platform
    version = _hip_version(cmd, env)
    if not version:
        return None
    roots = ["/usr/include", "/opt/rocm/include"]
    try:
        hip_path = subprocess.run(
            ["hipconfig", "--path"], check=False, capture_output=True, text=True, timeout=30, env={**os.environ, **env}
        ).stdout.strip()
        if hip_path:
            roots.insert(0, str(Path(hip_path) / "include"))
    except (OSError, subprocess.TimeoutExpired):
        pass
    name = "custom" if command else "debian"
    # ROCm 5.x installs flat compatibility headers (include/hiprand.h next to include/hiprand/hiprand.h);
    # Debian's packages have only the per-library folders, so translations for 5.x name headers that
    # Debian lacks. Put those folders on the include path to give them the ROCm layout.
    flat = tuple(
        f"-isystem{Path(r) / lib}"
        for r in roots[-2:]
        for lib in ("hiprand", "hipsparse", "rocrand")
        if name == "debian" and (Path(r) / lib).is_dir()
    )
    return Toolchain(name, cmd + flat, version, tuple(dict.fromkeys(roots)), env=env)


def detect(
    hipcc: str | None = None, rocm_chroot_dir: str | None = None, which: str = "auto", rocm: str | None = None
) -> list[Toolchain]:
    """Toolchains to validate with. ``which``: auto (the newest one found), all (every chroot and the system's
    hipcc), chroot, host. ``rocm`` ("7.2"): only a toolchain of that ROCm release."""
    if hipcc:
        tc = host_hipcc(hipcc)
        return [tc] if tc else []
    if rocm_chroot_dir:
        tc = rocm_chroot(rocm_chroot_dir)
        return [tc] if tc else []
    wanted = chroot_release(rocm).version if rocm else None
    found: list[Toolchain] = []
    if which in ("auto", "all", "chroot"):
        for cand in chroot_candidates(rocm):
            tc = rocm_chroot(cand)
            if tc and (wanted is None or tc.rocm_version == wanted):
                found.append(tc)
                if which != "all":
                    break
    if which in ("all", "host") or (which == "auto" and not found):
        tc = host_hipcc()
        if tc and (wanted is None or tc.rocm_version == wanted):
            found.append(tc)
    return found


def setup_hint(rocm: str | None = None) -> str:
    release = chroot_release(rocm)
    suite = f"Debian {release.overlay} over {release.suite}" if release.overlay else f"Debian {release.suite}"
    option = f" --rocm {release.rocm}" if rocm else ""
    return (
        f"build a {suite} chroot with ROCm {release.rocm}'s hipcc and the HIP library headers: "
        f"`hipify-py validate --setup{option}` (as root on Debian/Ubuntu; needs debootstrap, ~1.5 GB, a few minutes)"
    )


def _hipcc_problem(command: str) -> str:
    cmd = shlex.split(command)
    if not cmd or not shutil.which(cmd[0]):
        return (
            f"--hipcc {command}: no such command. Install ROCm (its bin/hipcc), or {setup_hint()} "
            "and run validate without --hipcc"
        )
    return f"--hipcc {command}: `{command} --version` names no HIP version; pass ROCm's hipcc"


def _chroot_problem(root: str, rocm: str | None = None) -> str:
    option = f" --rocm {chroot_release(rocm).rocm}" if rocm else ""
    if not Path(root, "usr/bin/hipcc").exists():
        return f"no hipcc in the ROCm chroot {root}: build it with `hipify-py validate --setup{option} --rocm-chroot {root}`"
    if os.geteuid() != 0:
        return f"compiling in the ROCm chroot {root} needs root (unshare and chroot): run validate as root"
    if not shutil.which("unshare"):
        return f"compiling in the ROCm chroot {root} needs `unshare` (Debian/Ubuntu: apt-get install util-linux)"
    if rocm and rocm_chroot(root) is not None:
        return f"the chroot {root} holds another ROCm than {rocm}; rebuild it with `hipify-py validate --setup{option}`"
    return f"hipcc in the ROCm chroot {root} does not run; rebuild it with `hipify-py validate --setup{option} --rocm-chroot {root}`"


def no_toolchain_message(
    hipcc: str | None = None, rocm_chroot_dir: str | None = None, which: str = "auto", rocm: str | None = None
) -> str:
    """Why :func:`detect` found nothing, and what to install or run."""
    if hipcc:
        return _hipcc_problem(hipcc)
    if rocm_chroot_dir:
        return _chroot_problem(rocm_chroot_dir, rocm)
    built = chroot_candidates(rocm)
    if built and which != "host":
        return _chroot_problem(built[0], rocm)
    where = default_chroot(rocm) if rocm else " or ".join(default_chroot(r.rocm) for r in reversed(CHROOT_RELEASES))
    looked = [] if which == "host" else [f"a ROCm{' ' + rocm if rocm else ''} chroot at {where}"]
    looked += [] if which == "chroot" else [f"`hipcc`{' of ROCm ' + rocm if rocm else ''} on PATH"]
    return (
        f"no hipcc found (looked for {' and '.join(looked)}). To compile translations for AMD GPUs, "
        f"{setup_hint(rocm)}; or install ROCm and put its hipcc on PATH (or pass --hipcc CMD). Debian's own "
        "`apt-get install hipcc` (ROCm 5.x) also works, for translations targeting that older ROCm."
    )
