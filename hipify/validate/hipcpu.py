"""Finding HIP-CPU (a CPU implementation of the HIP runtime and kernel language, github.com/ROCm/HIP-CPU, MIT;
header-only C++17 over TBB) and the host compiler that builds programs against it.

HIP-CPU is never shipped with hipify-py: the user points at a copy (``--hip-cpu PATH`` or ``$HIPIFY_HIP_CPU``: its
folder, or a ``.tar.*`` archive of it, unpacked once into the cache), or ``validate --setup --cpu`` clones it into
the cache, where validate finds it afterwards.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = "https://github.com/ROCm/HIP-CPU.git"
ENV = "HIPIFY_HIP_CPU"
ENV_CXX = "HIPIFY_CPU_CXX"
RUNTIME = "include/hip/hip_runtime.h"


@dataclass(frozen=True)
class HipCpu:
    root: Path  # the folder holding include/hip/hip_runtime.h
    compiler: str  # g++ or clang++
    link: tuple[str, ...]  # TBB and threads

    def include(self) -> Path:
        return self.root / "include"

    def describe(self) -> str:
        return f"HIP-CPU in {self.root}, {self.compiler}"


def cache_root() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "hipify-py"


def default_checkout() -> Path:
    """Where ``validate --setup --cpu`` clones HIP-CPU and where validate looks when told nothing."""
    return cache_root() / "hip-cpu"


def _holding_runtime(folder: Path) -> Path | None:
    """``folder`` or the one folder inside it (an archive's top folder) that holds HIP-CPU's runtime header."""
    if (folder / RUNTIME).is_file():
        return folder
    inner = [p for p in folder.iterdir() if p.is_dir() and (p / RUNTIME).is_file()] if folder.is_dir() else []
    return inner[0] if len(inner) == 1 else None


def unpack(archive: Path) -> Path:
    """The folder an archive of HIP-CPU unpacks to, in the cache (once per archive content)."""
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()[:16]
    target = cache_root() / f"hip-cpu-{digest}"
    found = _holding_runtime(target) if target.is_dir() else None
    if found is not None:
        return found
    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    with tarfile.open(archive) as tar:
        tar.extractall(partial, filter="data") if hasattr(tarfile, "data_filter") else tar.extractall(partial)
    shutil.rmtree(target, ignore_errors=True)
    partial.rename(target)
    found = _holding_runtime(target)
    if found is None:
        raise FileNotFoundError(f"{archive} holds no {RUNTIME} (not HIP-CPU)")
    return found


def locate(path: str | None) -> tuple[Path | None, str]:
    """HIP-CPU's folder from ``path`` (else $HIPIFY_HIP_CPU, else the --setup --cpu checkout), or why none."""
    given = path or os.environ.get(ENV)
    if given:
        where = Path(given).expanduser()
        if where.is_file() and ".tar" in where.name:
            try:
                return unpack(where), ""
            except (OSError, tarfile.TarError) as exc:
                return None, f"could not unpack HIP-CPU from {where}: {exc}"
        found = _holding_runtime(where) if where.is_dir() else None
        if found is None:
            return None, f"{where} is not HIP-CPU (no {RUNTIME} in it)"
        return found, ""
    found = _holding_runtime(default_checkout()) if default_checkout().is_dir() else None
    if found is not None:
        return found, ""
    return None, (
        f"HIP-CPU not found: pass --hip-cpu DIR|ARCHIVE, set ${ENV}, or run `hipify-py validate --setup --cpu` "
        f"(clones {REPOSITORY} into {default_checkout()})"
    )


def host_compiler() -> tuple[str | None, str]:
    """The C++17 compiler for HIP-CPU ($HIPIFY_CPU_CXX, else g++, else clang++), or why none."""
    for candidate in filter(None, (os.environ.get(ENV_CXX), "g++", "clang++")):
        if shutil.which(candidate):
            return candidate, ""
    return None, "no C++ compiler (g++ or clang++) found: apt-get install g++"


def tbb_missing(compiler: str) -> str:
    """Why ``compiler`` cannot build against TBB (HIP-CPU's parallel algorithms), or ""."""
    probe = "#include <tbb/tbb.h>\nint main() { return 0; }\n"
    try:
        proc = subprocess.run(
            [compiler, "-std=c++17", "-x", "c++", "-", "-o", os.devnull, "-ltbb"],
            input=probe,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{compiler} could not be run: {exc}"
    if proc.returncode != 0:
        return "TBB (HIP-CPU's parallel algorithms) is missing: apt-get install libtbb-dev"
    return ""


def find(path: str | None) -> tuple[HipCpu | None, str]:
    """HIP-CPU with a compiler that builds against it, or why not."""
    root, why = locate(path)
    if root is None:
        return None, why
    compiler, why = host_compiler()
    if compiler is None:
        return None, why
    why = tbb_missing(compiler)
    if why:
        return None, why
    return HipCpu(root, compiler, ("-ltbb", "-lpthread")), ""


def setup_cpu(target: Path | None = None) -> int:
    """``validate --setup --cpu``: clone HIP-CPU into the cache (a second run only checks). Needs the network
    and git; says so plainly when either is missing."""
    target = target or default_checkout()
    if _holding_runtime(target) if target.is_dir() else None:
        print(f"validate --setup --cpu: HIP-CPU is already in {target}")
        return _say_tbb()
    git = shutil.which("git")
    if git is None:
        print("validate --setup --cpu: git not found (apt-get install git), or pass --hip-cpu DIR|ARCHIVE instead")
        return 2
    target.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [git, "clone", "--depth", "1", REPOSITORY, str(target)], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        shutil.rmtree(target, ignore_errors=True)
        print(
            f"validate --setup --cpu: could not clone {REPOSITORY} (offline?): "
            f"{(proc.stderr or proc.stdout).strip()[-400:]}\n"
            "  pass --hip-cpu DIR|ARCHIVE (or set $HIPIFY_HIP_CPU) to a copy of HIP-CPU instead"
        )
        return 2
    print(f"validate --setup --cpu: HIP-CPU cloned into {target}")
    return _say_tbb()


def _say_tbb() -> int:
    compiler, why = host_compiler()
    why = why or tbb_missing(compiler or "g++")
    if why:
        print(f"validate --setup --cpu: {why}")
        return 2
    return 0
