"""``hipify-py validate --setup [--rocm X.Y]``: build a Debian chroot holding a ROCm release's hipcc, make, CMake
and the HIP libraries, so that translated programs can be compiled, linked and built with their own build files
for AMD GPUs on a CPU-only machine.

Why a chroot: translations target a current ROCm (per-library include folders, ``*_sync`` warp builtins,
APIs of 7.x), Debian 12 packages ROCm 5.2 and no hipBLAS/hipFFT/hipCUB, and installing ROCm itself needs
AMD's repository. Debian sid packages ROCm 6.4's compiler and libraries, and Debian experimental ROCm 7.2's
(only what changed: apt takes the rest from sid, under experimental's packages). Each release gets its own
chroot (``toolchain.CHROOT_RELEASES``: /tmp/rocm-sid, /tmp/rocm7-sid), so both can be validated side by side.
Packages whose GPU kernels weigh
gigabytes are not installed: their ``.deb``s (and those of the runtime libraries they need) are
downloaded and only what building needs is extracted: headers, CMake package files, and link stubs of
the shared objects (:mod:`.debparts`). About 1.5 GB and three minutes.

Written in Python rather than shipped as a shell script: the steps are a handful of commands, and in
Python they share the chroot recipe (:func:`toolchain.chroot_command`) and the default location with
the code that finds the compiler, their checks and messages are unit-tested without root, and a pip
install carries them without package data.

Idempotent: each step checks a stamp (or the packages it installs) and is skipped when done; a ready
chroot whose package lists match, and that has every part validation asks for, is reported in a fraction of a
second. A chroot made otherwise (another script's, or one that lost a part since) is completed, not rebuilt: its
Debian system stays, and the steps add what it lacks.
"""

from __future__ import annotations

import functools
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

from .debparts import SHARED_OBJECT, extract_build_parts, member_role, parse_simulated_installs
from .parts import ASKED, Part, ask
from .toolchain import ChrootRelease, Toolchain, chroot_command, chroot_release

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
    "libomp-21-dev",  # the OpenMP of hipcc's clang: each release's own (ChrootRelease.openmp)
    "libroctx-dev",
    # building whole programs with their own build files: GNU make, CMake (HIP language and packages),
    # and the C/C++ compilers that Makefiles and CMake's C/CXX languages call for host code
    "make",
    "cmake",
    "g++",
)
# Build parts only (headers, CMake files, link stubs; see debparts): installed normally these cost ~8 GB
# more of GPU kernels (rocBLAS 3.9 GB, rocSOLVER 1.9 GB, rocSPARSE 1.6 GB, hipBLASLt 0.7 GB). The runtime
# packages they depend on come along the same way; librccl-dev wants a HIP 5 runtime in sid, which apt cannot
# install next to HIP 6: its shared object (librccl1) is named too, and its stub keeps only what it defines.
HEADERS_ONLY = (
    "libhipblas-dev",
    "libhipblaslt-dev",
    "libhipsparse-dev",
    "libhipsolver-dev",
    "libmiopen-dev",
    "librccl-dev",
    "librccl1",  # -lrccl: librccl-dev's dependencies cannot be installed, so its library does not come with it
    "librocblas-dev",
    "librocsolver-dev",
    "librocsparse-dev",
    "librocfft-dev",
)
# Headers only, when the suite packages them (it did not when this was written).
OPTIONAL_HEADERS_ONLY = ("libhipsparselt-dev", "libhiptensor-dev")

READY_STAMP = ".hipify-ready"
DEBOOTSTRAP_STAMP = ".debootstrap-done"
BUILD_PARTS_STAMP = ".build-parts"
STUBS_MANIFEST = ".link-stubs"  # root-relative paths of the link stubs written (a re-run may replace them)
DEB_CACHE = "var/cache/hipify-debs"
BUILD_PARTS_VERSION = "3"  # headers, CMake files, static libraries, link stubs

# Compiled for gfx90a and linked at the end: a kernel, cooperative groups, the runtime API, one header of
# each library family that translations name, and a call into each library that is linked.
SELFTEST_SOURCE = """\
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <hipblas/hipblas.h>
#include <hipblaslt/hipblaslt.h>
#include <hipcub/hipcub.hpp>
#include <hipfft/hipfft.h>
#include <hiprand/hiprand.h>
#include <hiprand/hiprand_kernel.h>
#include <hipsolver/hipsolver.h>
#include <hipsparse/hipsparse.h>
#include <rccl/rccl.h>
#include <rocblas/rocblas.h>
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
  hipblasLtHandle_t lt; hipfftHandle f; hiprandGenerator_t g; hipsolverHandle_t s; hipsparseHandle_t sp;
  rocblas_handle r;
  hipblasLtCreate(&lt); hipfftCreate(&f); hiprandCreateGenerator(&g, HIPRAND_RNG_PSEUDO_DEFAULT);
  hipsolverCreate(&s); hipsparseCreate(&sp); rocblas_create_handle(&r);
  (void)hipcub::DeviceReduce::Sum(tmp, bytes, a, o, n);
  thrust::device_vector<float> v(16, 1.f);
  return (int)thrust::reduce(v.begin(), v.end());
}
"""


# Linked into the self-test program: every library whose shared object is a link stub, and hipFFT/hipRAND.
SELFTEST_LINK = ("-lhipblas", "-lhipblaslt", "-lhipfft", "-lhiprand", "-lhipsolver", "-lhipsparse", "-lrocblas")
# What a translated CMake project does: the HIP language, hip's package and each library's package.
SELFTEST_CMAKE = """\
cmake_minimum_required(VERSION 3.21)
project(selftest LANGUAGES C CXX HIP)
find_package(hip REQUIRED)
foreach(package hipblas hipblaslt hipcub hipfft hiprand hipsolver hipsparse rocblas rocfft rocprim rocrand
                rocsolver rocsparse rocthrust)
  find_package(${package} REQUIRED)
endforeach()
add_executable(selftest x.hip)
target_link_libraries(selftest PRIVATE roc::hipblas roc::hipblaslt hip::hipcub hip::hipfft hip::hiprand
                      roc::hipsolver roc::hipsparse roc::rocblas roc::rocthrust)
"""


class SetupError(Exception):
    """The host cannot build the chroot; the message says what to do."""


@dataclass(frozen=True)
class Plan:
    root: Path
    mirror: str = MIRROR
    suite: str = SUITE
    overlay: str = ""  # a suite whose packages win where it has them (experimental, over sid)
    install: tuple[str, ...] = INSTALL
    headers_only: tuple[str, ...] = HEADERS_ONLY
    optional_headers_only: tuple[str, ...] = OPTIONAL_HEADERS_ONLY
    selftest: bool = True

    def digest(self) -> str:
        """What the ready stamp records: a chroot built from other lists is built again."""
        lists = [
            self.suite,
            *([f"+{self.overlay}"] if self.overlay else []),
            *self.install,
            "--",
            *self.headers_only,
            "--",
            *self.optional_headers_only,
        ]
        text = "\n".join([*lists, "--", BUILD_PARTS_VERSION])
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def is_ready(self) -> bool:
        stamp = self.root / READY_STAMP
        return (self.root / "usr/bin/hipcc").exists() and stamp.is_file() and stamp.read_text().strip() == self.digest()

    def has_base_system(self) -> bool:
        """Is a Debian system there already (ours, or another script's): completed, never bootstrapped again. One
        that debootstrap left half made (its ``debootstrap/`` folder is still there) is not."""
        root = self.root
        made = (root / "usr/bin/apt-get").exists() and (root / "var/lib/dpkg/status").is_file()
        return made and not (root / "debootstrap").exists()

    def lacks(self) -> tuple[Part, ...]:
        """The parts validation asks for that the chroot lacks (none when it cannot be asked)."""
        root = str(self.root)
        tc = Toolchain("rocm-chroot", (*chroot_command(root), "hipcc"), "", (f"{root}/usr/include",), chroot=root)
        return ask(tc).lacks(ASKED)


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
    if not (plan.root / DEBOOTSTRAP_STAMP).exists() and not plan.has_base_system():
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
    if plan.has_base_system():
        say(f"- Debian base system: already in {plan.root}")
        (plan.root / DEBOOTSTRAP_STAMP).touch()
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
    # an overlay suite (experimental) is the default release: its packages win where it has them, sid's elsewhere
    release = f'APT::Default-Release "{plan.overlay}";\n' if plan.overlay else ""
    (root / "etc/apt/apt.conf.d/90-hipify").write_text(
        'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\nAcquire::Check-Valid-Until "false";\n'
        + release
    )
    if plan.overlay:
        (root / f"etc/apt/sources.list.d/{plan.overlay}.list").write_text(f"deb {plan.mirror} {plan.overlay} main\n")
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


def package_closure(plan: Plan, packages: Sequence[str], say: Say, alone: set[str] | None = None) -> list[str]:
    """``packages`` and every package apt would install with them (their runtime libraries and what those
    need), from ``apt-get install --simulate`` run for each: one whose dependencies cannot be met in the
    suite (RCCL's) comes alone, and is added to ``alone``."""
    found: dict[str, None] = {}
    for package in packages:
        proc = subprocess.run(
            in_chroot(plan, "apt-get", "install", "--simulate", "-qq", package),
            check=False,
            capture_output=True,
            text=True,
        )
        names = parse_simulated_installs(proc.stdout) if proc.returncode == 0 else []
        if proc.returncode != 0:
            say(f"  ({package}: its dependencies cannot be installed in {plan.suite}; its build parts alone)")
            if alone is not None:
                alone.add(package)
        found.update(dict.fromkeys(names or [package]))
    return list(found)


def _download(plan: Plan, packages: Sequence[str], say: Say) -> list[Path]:
    """The .debs of ``packages`` in the download folder; those already there (an interrupted run) are kept."""
    folder = plan.root / DEB_CACHE
    folder.mkdir(parents=True, exist_ok=True)
    missing = [p for p in packages if not any(folder.glob(f"{p}_*.deb"))]
    if missing:
        inner = "/" + DEB_CACHE
        script = f"cd {inner} && apt-get -o APT::Sandbox::User=root download -qq " + " ".join(missing)
        _run(in_chroot(plan, "sh", "-c", script), say)
    return sorted(deb for p in packages for deb in folder.glob(f"{p}_*.deb"))


def _llvm_ifs(plan: Plan) -> str:
    """The chroot's llvm-ifs (clang's LLVM), as the chroot sees it."""
    found = sorted(plan.root.glob("usr/lib/llvm-*/bin/llvm-ifs"), key=lambda p: int(p.parts[-3].split("-")[1]))
    if not found:
        raise OSError(
            "llvm-ifs not found in the chroot (usr/lib/llvm-*/bin): install the llvm package of hipcc's clang"
        )
    return "/" + found[-1].relative_to(plan.root).as_posix()


def dpkg_owned(root: Path) -> frozenset[str]:
    """Root-relative paths that installed packages own (dpkg's file lists)."""
    owned: set[str] = set()
    for listing in (root / "var/lib/dpkg/info").glob("*.list"):
        try:
            owned.update(line.lstrip("/") for line in listing.read_text(errors="replace").splitlines() if line)
        except OSError:
            continue
    return frozenset(owned)


def extract_build_parts_step(plan: Plan, say: Say) -> None:
    wanted = " ".join([*plan.headers_only, *plan.optional_headers_only]) + f" | parts {BUILD_PARTS_VERSION}"
    stamp = plan.root / BUILD_PARTS_STAMP
    if stamp.is_file() and stamp.read_text().strip() == wanted:
        say(f"- {len(plan.headers_only)} libraries whose GPU kernels are not installed: build parts already there")
        return
    optional = available(plan, plan.optional_headers_only)
    for name in sorted(set(plan.optional_headers_only) - set(optional)):
        say(f"  ({name} is not packaged in {plan.suite}: skipped)")
    alone: set[str] = set()
    packages = package_closure(plan, [*plan.headers_only, *optional], say, alone)
    say(f"- build parts (headers, CMake files, link stubs of the shared objects) of: {' '.join(packages)}")
    debs = _download(plan, packages, say)
    ifs = _llvm_ifs(plan)
    manifest = plan.root / STUBS_MANIFEST
    written = frozenset(manifest.read_text().split()) if manifest.is_file() else frozenset()
    # a stub of ours that a package has since installed for real (apt-get install librocblas4) is the package's
    ours = written - dpkg_owned(plan.root)

    def make_stub(path: Path, self_contained: bool = False) -> None:
        inner = "/" + path.relative_to(plan.root).as_posix()
        # a library whose dependencies are not here: its stub names none and needs nothing, or every link against
        # it would fail on their symbols (RCCL's on librocm_smi64's)
        strip = ["--strip-needed", "--strip-undefined"] if self_contained else []
        proc = subprocess.run(
            in_chroot(plan, ifs, *strip, f"--output-elf={inner}.stub", inner),
            check=False,
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            raise OSError(f"llvm-ifs failed on {inner}: {proc.stderr.strip()[:500]}")
        Path(f"{path}.stub").replace(path)

    stubs: set[str] = set(ours)
    for deb in debs:
        tar = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", str(deb)], stdout=subprocess.PIPE)
        assert tar.stdout is not None
        try:
            stub = functools.partial(make_stub, self_contained=deb.name.split("_")[0] in alone)
            parts = extract_build_parts(tar.stdout, plan.root, stub, ours)
        finally:
            tar.stdout.close()
            tar.wait()
        # the links to them too: a re-run may replace what it wrote, never what a package installed
        stubs.update([*parts.stubs, *(link for link in parts.links if member_role(link) == SHARED_OBJECT)])
        stubs -= written - ours  # installed for real since: no longer ours
        kept = f"; {len(parts.kept_existing)} installed libraries left as they are" if parts.kept_existing else ""
        say(f"  {deb.name}: {len(parts.files)} files, {len(parts.links)} links, {len(parts.stubs)} link stubs{kept}")
        manifest.write_text("\n".join(sorted(stubs)) + "\n")
    shutil.rmtree(plan.root / DEB_CACHE, ignore_errors=True)
    stamp.write_text(wanted + "\n")


def clean(plan: Plan, say: Say) -> None:
    say("- apt-get clean (drop downloaded .debs)")
    _run(in_chroot(plan, "apt-get", "clean"), say)


def selftest(plan: Plan, say: Say) -> None:
    if not plan.selftest:
        say("- self-test: skipped")
        return
    say("- self-test: compile a kernel using every library family for gfx90a, link it with the libraries,")
    say("  and build it with CMake (LANGUAGES HIP, find_package of each library package)")
    folder = plan.root / "tmp/hipify-selftest"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    (folder / "x.hip").write_text(SELFTEST_SOURCE)
    (folder / "CMakeLists.txt").write_text(SELFTEST_CMAKE)
    inner = "/tmp/hipify-selftest"
    try:
        cmd = ["hipcc", "--offload-arch=gfx90a", "-std=c++17", "-x", "hip", f"{inner}/x.hip", "-o", f"{inner}/x"]
        _run(in_chroot(plan, *cmd, *SELFTEST_LINK), say)
        configure = f"cmake -S {inner} -B {inner}/build -DCMAKE_HIP_ARCHITECTURES=gfx90a >/dev/null"
        _run(in_chroot(plan, "sh", "-c", f"{configure} && cmake --build {inner}/build >/dev/null"), say)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


STEPS: tuple[Callable[[Plan, Say], None], ...] = (
    debootstrap,
    configure,
    install_packages,
    extract_build_parts_step,
    clean,
    selftest,
)


def setup(plan: Plan, say: Say, host: Host | None = None) -> int:
    """Build or complete the chroot. 0 when ready, 1 when a command failed, 2 when the host cannot."""
    root_user = (host or Host()).euid == 0  # only root can enter the chroot to ask it for its parts
    if plan.is_ready():
        lacks = plan.lacks() if root_user else ()
        if not lacks:
            say(f"validate --setup: ROCm chroot ready at {plan.root} (nothing to do)")
            return 0
        say(f"validate --setup: the ROCm chroot at {plan.root} lacks {_named(lacks)}: completing it")
        if any(part.link_file for part in lacks):
            (plan.root / BUILD_PARTS_STAMP).unlink(missing_ok=True)  # the link stubs are made again
    try:
        check_host(plan, host)
    except SetupError as exc:
        say(f"validate: {exc}")
        return 2
    start = time.perf_counter()
    suite = f"{plan.overlay} over {plan.suite}" if plan.overlay else plan.suite
    say(f"validate --setup: a Debian {suite} chroot with ROCm's hipcc at {plan.root} (steps already done are skipped)")
    try:
        for step in STEPS:
            step(plan, say)
    except (subprocess.CalledProcessError, OSError) as exc:
        say(f"validate --setup: failed: {exc}")
        return 1
    still = plan.lacks() if root_user else ()
    if still:  # (a package dpkg holds installed whose files are gone: apt-get install --reinstall it there)
        say(f"validate --setup: the ROCm chroot at {plan.root} still lacks {_named(still)}")
        return 1
    (plan.root / READY_STAMP).write_text(plan.digest() + "\n")
    say(f"validate --setup: ready at {plan.root} in {time.perf_counter() - start:.0f} s; `hipify-py validate` uses it")
    return 0


def _named(parts: tuple[Part, ...]) -> str:
    return "; ".join(part.describe() for part in parts)


def plan_for(
    release: ChrootRelease, root: str | None = None, mirror: str | None = None, selftest_on: bool = True
) -> Plan:
    install = tuple(release.openmp if p.startswith("libomp-") else p for p in INSTALL)
    return Plan(
        Path(root or release.root()),
        mirror or MIRROR,
        release.suite,
        release.overlay,
        install=install,
        headers_only=(*HEADERS_ONLY, *release.build_parts),
        selftest=selftest_on,
    )


def main_setup(root: str | None, mirror: str | None, selftest_on: bool, rocm: str | None = None) -> int:
    """``rocm``: the release to build (None: the newest, which translation targets by default)."""
    say = lambda message: print(message, file=sys.stderr, flush=True)  # noqa: E731
    try:
        release = chroot_release(rocm)
    except ValueError as exc:
        say(f"validate: {exc}")
        return 2
    return setup(plan_for(release, root, mirror, selftest_on), say)
