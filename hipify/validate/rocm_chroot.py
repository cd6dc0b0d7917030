"""``hipify-py validate --setup``: build a Debian sid chroot holding ROCm 6.4's hipcc and the HIP library
headers, so that translations can be compiled for AMD GPUs on a CPU-only machine.

Why a chroot: translations target ROCm 6.4 (per-library include folders, ``*_sync`` warp builtins),
Debian 12 packages ROCm 5.2 and no hipBLAS/hipFFT/hipCUB, and installing ROCm itself needs AMD's
repository. Debian sid packages ROCm 6.4's compiler and libraries. Packages whose GPU kernel libraries
weigh gigabytes are not installed: their ``.deb``s are downloaded and only ``usr/include`` is
extracted, which is all that ``hipcc -c`` needs. About 1.3 GB and two minutes.

Written in Python rather than shipped as a shell script: the steps are a handful of commands, and in
Python they share the chroot recipe (:func:`toolchain.chroot_command`) and the default location with
the code that finds the compiler, their checks and messages are unit-tested without root, and a pip
install carries them without package data.

Idempotent: each step checks a stamp (or the packages it installs) and is skipped when done; a ready
chroot whose package lists match is reported in a fraction of a second.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .toolchain import chroot_command, default_chroot

MIRROR = "http://deb.debian.org/debian"
SUITE = "sid"
FREE_BYTES_NEEDED = 3 * 1024**3  # ~1.3 GB used; room for apt's downloads on top

# Installed with their dependencies (~0.9 GB): the compiler (clang 21, rocm-device-libs), the HIP
# runtime headers, header-only hipCUB/rocPRIM/rocThrust, hipRAND/rocRAND, hipFFT; hipblas-common
# (its own package since ROCm 6.4.4); omp.h and roctx.h, which a ROCm install has too.
INSTALL = (
    "hipcc",
    "libamdhip64-dev",
    "libhipfft-dev",
    "libhiprand-dev",
    "librocrand-dev",
    "libhipcub-dev",
    "librocprim-dev",
    "librocthrust-dev",
    "libhipblas-common-dev",
    "libomp-21-dev",
    "libroctx-dev",
)
# Headers only: installed normally these cost ~8 GB more of GPU kernels (rocBLAS 3.9 GB, rocSOLVER
# 1.9 GB, rocSPARSE 1.6 GB, hipBLASLt 0.7 GB), and librccl-dev wants a HIP 5 runtime in sid.
HEADERS_ONLY = (
    "libhipblas-dev",
    "libhipblaslt-dev",
    "libhipsparse-dev",
    "libhipsolver-dev",
    "libmiopen-dev",
    "librccl-dev",
    "librocblas-dev",
    "librocsolver-dev",
    "librocsparse-dev",
    "librocfft-dev",
)
# Headers only, when the suite packages them (it did not when this was written).
OPTIONAL_HEADERS_ONLY = ("libhipsparselt-dev", "libhiptensor-dev")

READY_STAMP = ".hipify-ready"
DEBOOTSTRAP_STAMP = ".debootstrap-done"
HEADERS_STAMP = ".headers-only"

# Compiled for gfx90a at the end: a kernel, cooperative groups, the runtime API and one header of
# each library family that translations name.
SELFTEST_SOURCE = """\
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <hipblas/hipblas.h>
#include <hipblaslt/hipblaslt.h>
#include <hipcub/hipcub.hpp>
#include <hipfft/hipfft.h>
#include <hiprand/hiprand_kernel.h>
#include <hipsolver/hipsolver.h>
#include <hipsparse/hipsparse.h>
#include <rccl/rccl.h>
#include <roctracer/roctx.h>
#include <omp.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(const float* in, float* out, int n) {
  cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = i < n ? in[i] : 0.f;
  for (int o = 16; o > 0; o /= 2) s += t.shfl_down(s, o);
  if (t.thread_rank() == 0) atomicAdd(out, s);
}
int main() {
  float *a, *o; int n = 1024; void* tmp = nullptr; size_t bytes = 0; hipblasHandle_t h;
  (void)hipMalloc(&a, n * sizeof(float)); (void)hipMalloc(&o, sizeof(float));
  k<<<n / 256, 256>>>(a, o, n);
  hipblasCreate(&h);
  (void)hipcub::DeviceReduce::Sum(tmp, bytes, a, o, n);
  thrust::device_vector<float> v(16, 1.f);
  return (int)thrust::reduce(v.begin(), v.end());
}
"""


class SetupError(Exception):
    """The host cannot build the chroot; the message says what to do."""


@dataclass(frozen=True)
class Plan:
    root: Path
    mirror: str = MIRROR
    suite: str = SUITE
    install: tuple[str, ...] = INSTALL
    headers_only: tuple[str, ...] = HEADERS_ONLY
    optional_headers_only: tuple[str, ...] = OPTIONAL_HEADERS_ONLY
    selftest: bool = True

    def digest(self) -> str:
        """What the ready stamp records: a chroot built from other lists is built again."""
        text = "\n".join([self.suite, *self.install, "--", *self.headers_only, "--", *self.optional_headers_only])
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def is_ready(self) -> bool:
        stamp = self.root / READY_STAMP
        return (self.root / "usr/bin/hipcc").exists() and stamp.is_file() and stamp.read_text().strip() == self.digest()


def _free_bytes(path: Path) -> int:
    existing = next(p for p in (path, *path.parents) if p.exists())
    return shutil.disk_usage(existing).free


@dataclass(frozen=True)
class Host:
    """What the checks look at, so that tests can describe another host."""

    euid: int = field(default_factory=lambda: os.geteuid())
    which: Callable[[str], str | None] = shutil.which
    free_bytes: Callable[[Path], int] = _free_bytes


def check_host(plan: Plan, host: Host | None = None) -> None:
    """Raise :class:`SetupError` naming what is missing: root, debootstrap, unshare, disk space."""
    host = host or Host()
    if host.euid != 0:
        raise SetupError(
            "validate --setup needs root (debootstrap and chroot do): run it as root, e.g. "
            f"`sudo hipify-py validate --setup --rocm-chroot {plan.root}`"
        )
    for tool, package in (("debootstrap", "debootstrap"), ("unshare", "util-linux"), ("chroot", "coreutils")):
        if not host.which(tool):
            raise SetupError(
                f"validate --setup needs `{tool}`: install it (Debian/Ubuntu: `apt-get install {package}`)"
            )
    if not (plan.root / DEBOOTSTRAP_STAMP).exists():
        free = host.free_bytes(plan.root)
        if free < FREE_BYTES_NEEDED:
            raise SetupError(
                f"validate --setup needs about 3 GB free under {plan.root.parent} "
                f"({free / 1024**3:.1f} GB free); pass --rocm-chroot DIR elsewhere"
            )


Say = Callable[[str], None]


def _run(cmd: Sequence[str], say: Say, env: dict[str, str] | None = None) -> None:
    """Run ``cmd`` with its output going to the user's terminal; raise when it fails."""
    say("  $ " + shlex.join(cmd))
    proc = subprocess.run(list(cmd), check=False, env=env)
    if proc.returncode != 0:
        raise subprocess.CalledProcessError(proc.returncode, list(cmd))


def in_chroot(plan: Plan, *cmd: str) -> list[str]:
    """A command run inside the chroot, with /proc mounted in a private mount namespace."""
    return [*chroot_command(str(plan.root)), *cmd]


def debootstrap(plan: Plan, say: Say) -> None:
    if (plan.root / DEBOOTSTRAP_STAMP).exists() and (plan.root / "usr/bin/apt-get").exists():
        say(f"- Debian {plan.suite} base system: already in {plan.root}")
        return
    say(f"- Debian {plan.suite} base system into {plan.root} (debootstrap, minbase)")
    plan.root.mkdir(parents=True, exist_ok=True)
    _run(["debootstrap", "--variant=minbase", plan.suite, str(plan.root), plan.mirror], say)
    (plan.root / DEBOOTSTRAP_STAMP).touch()


def configure(plan: Plan, say: Say) -> None:
    """No daemons, the host's resolver for apt, no recommends or docs, and a mirror whose Release may be past
    its Valid-Until (a frozen snapshot)."""
    say("- apt and dpkg settings (no recommends, no docs, no daemons)")
    root = plan.root
    policy = root / "usr/sbin/policy-rc.d"
    policy.write_text("#!/bin/sh\nexit 101\n")
    policy.chmod(0o755)
    if Path("/etc/resolv.conf").exists():
        shutil.copy(Path("/etc/resolv.conf").resolve(), root / "etc/resolv.conf")
    (root / "etc/apt/apt.conf.d/90-hipify").write_text(
        'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\nAcquire::Check-Valid-Until "false";\n'
    )
    (root / "etc/dpkg/dpkg.cfg.d/90-hipify-nodoc").write_text(
        "".join(f"path-exclude /usr/share/{d}/*\n" for d in ("doc", "man", "info", "locale"))
    )


def installed(plan: Plan, packages: Sequence[str]) -> bool:
    query = in_chroot(plan, "dpkg-query", "-W", "-f=${Status}\\n", *packages)
    proc = subprocess.run(query, check=False, capture_output=True, text=True)
    lines = proc.stdout.splitlines()
    return proc.returncode == 0 and len(lines) == len(packages) and all(x.endswith(" installed") for x in lines)


def install_packages(plan: Plan, say: Say) -> None:
    if installed(plan, plan.install):
        say(f"- ROCm compiler and header-only libraries: already installed ({len(plan.install)} packages)")
        return
    say(f"- ROCm compiler and header-only libraries: apt-get install {' '.join(plan.install)}")
    _run(in_chroot(plan, "apt-get", "update", "-qq"), say)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive", "LC_ALL": "C"}
    _run(in_chroot(plan, "apt-get", "install", "-y", "-qq", *plan.install), say, env=env)


def available(plan: Plan, packages: Sequence[str]) -> list[str]:
    """The packages the suite has (``apt-cache show`` succeeds)."""
    found = []
    for package in packages:
        query = in_chroot(plan, "apt-cache", "show", package)
        if subprocess.run(query, check=False, capture_output=True).returncode == 0:
            found.append(package)
    return found


def extract_headers(plan: Plan, say: Say) -> None:
    wanted = " ".join([*plan.headers_only, *plan.optional_headers_only])
    stamp = plan.root / HEADERS_STAMP
    if stamp.is_file() and stamp.read_text().strip() == wanted:
        say(f"- headers of {len(plan.headers_only)} libraries whose GPU kernels are not installed: already there")
        return
    optional = available(plan, plan.optional_headers_only)
    for name in sorted(set(plan.optional_headers_only) - set(optional)):
        say(f"  ({name} is not packaged in {plan.suite}: skipped)")
    packages = [*plan.headers_only, *optional]
    say(f"- headers only (usr/include of each .deb): {' '.join(packages)}")
    downloads = plan.root / "var/cache/hipify-header-debs"
    shutil.rmtree(downloads, ignore_errors=True)
    downloads.mkdir(parents=True)
    inner = "/" + downloads.relative_to(plan.root).as_posix()
    script = f"cd {inner} && apt-get -o APT::Sandbox::User=root download -qq " + " ".join(packages)
    _run(in_chroot(plan, "sh", "-c", script), say)
    for deb in sorted(downloads.glob("*.deb")):
        say(f"  headers: {deb.name}")
        tar = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", str(deb)], stdout=subprocess.PIPE)
        subprocess.run(
            ["tar", "-x", "-C", str(plan.root), "./usr/include"],
            stdin=tar.stdout,
            check=False,
            stderr=subprocess.DEVNULL,
        )
        tar.wait()
    shutil.rmtree(downloads, ignore_errors=True)
    stamp.write_text(wanted + "\n")


def clean(plan: Plan, say: Say) -> None:
    say("- apt-get clean (drop downloaded .debs)")
    _run(in_chroot(plan, "apt-get", "clean"), say)


def selftest(plan: Plan, say: Say) -> None:
    if not plan.selftest:
        say("- self-test: skipped")
        return
    say("- self-test: compile a kernel using every library family for gfx90a")
    folder = plan.root / "tmp/hipify-selftest"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "x.hip").write_text(SELFTEST_SOURCE)
    try:
        cmd = ["hipcc", "--offload-arch=gfx90a", "-std=c++17", "-x", "hip", "-c", "/tmp/hipify-selftest/x.hip"]
        _run(in_chroot(plan, *cmd, "-o", "/dev/null"), say)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


STEPS: tuple[Callable[[Plan, Say], None], ...] = (
    debootstrap,
    configure,
    install_packages,
    extract_headers,
    clean,
    selftest,
)


def setup(plan: Plan, say: Say, host: Host | None = None) -> int:
    """Build or complete the chroot. 0 when ready, 1 when a command failed, 2 when the host cannot."""
    if plan.is_ready():
        say(f"validate --setup: ROCm chroot ready at {plan.root} (nothing to do)")
        return 0
    try:
        check_host(plan, host)
    except SetupError as exc:
        say(f"validate: {exc}")
        return 2
    start = time.perf_counter()
    say(
        f"validate --setup: a Debian {plan.suite} chroot with ROCm's hipcc at {plan.root} (steps already done are skipped)"
    )
    try:
        for step in STEPS:
            step(plan, say)
    except (subprocess.CalledProcessError, OSError) as exc:
        say(f"validate --setup: failed: {exc}")
        return 1
    (plan.root / READY_STAMP).write_text(plan.digest() + "\n")
    say(f"validate --setup: ready at {plan.root} in {time.perf_counter() - start:.0f} s; `hipify-py validate` uses it")
    return 0


def main_setup(root: str | None, mirror: str | None, selftest_on: bool) -> int:
    plan = Plan(Path(root or default_chroot()), mirror or MIRROR, selftest=selftest_on)
    return setup(plan, lambda message: print(message, file=sys.stderr, flush=True))
