"""The two header sets the generator reads: CUDA families (one index per CUDA version) and the HIP side (one index
per ROCm release, plus the pairs HIP's NVIDIA backend defines)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .errors import GenerationError
from .headers import HeaderIndex, build_index, header_files
from .pairs import backend_pairs
from .sources import CURRENT_ROCM, HIP_EXCLUDE, HIP_NAMESPACES, NVIDIA_BACKEND, ROCM_RELEASES, ApiSpec

_HIP_PATTERNS = ("**/*.h", "**/*.hpp", "**/*.hh", "**/*.inl", "**/*.cuh")


@dataclass(frozen=True)
class HipSide:
    """The HIP headers of the releases up to one (``release``, the newest read): targets are verified against its
    headers, and the older ones say since when a target exists and what only they declare (``removed``)."""

    indexes: dict[str, HeaderIndex]  # ROCm release -> index, oldest first
    files: dict[str, dict[str, Path]]  # ROCm release -> relative header -> file
    # headers hipcc reads before the file's first line: clang's __clang_hip_*.h (`-include
    # __clang_hip_runtime_wrapper.h`, which includes the others)
    preincluded: frozenset[str] = frozenset()

    @property
    def releases(self) -> tuple[str, ...]:
        return tuple(self.indexes)

    @property
    def release(self) -> str:
        """The release whose headers decide what is supported (the newest read)."""
        return self.releases[-1]

    @property
    def current(self) -> HeaderIndex:
        return self.indexes[self.release]

    @property
    def current_files(self) -> dict[str, Path]:
        return self.files[self.release]

    def since(self, name: str) -> str:
        return next((r for r in self.indexes if name in self.indexes[r]), "")

    def header_since(self, rel: str) -> str:
        return next((r for r in self.files if rel in self.files[r]), "")


def cuda_rel(path_under_family: str) -> str:
    """'toolkit/crt/math_functions.h' -> 'crt/math_functions.h'; 'toolkit/cccl/cub/x.cuh' -> 'cub/x.cuh'."""
    rel = path_under_family.split("/", 1)[1] if "/" in path_under_family else path_under_family
    return rel.removeprefix("cccl/")


def cuda_index(cache: Path, family: str, patterns: tuple[str, ...], spec: ApiSpec) -> HeaderIndex:
    root = cache / "cuda" / family
    files = [(cuda_rel(rel), path) for rel, path in header_files(root, patterns)]
    return build_index(files, dict(spec.namespace))


def releases_through(release: str) -> tuple[str, ...]:
    """The scanned releases up to and including ``release``: what a table generated for ``release`` reads."""
    return ROCM_RELEASES[: ROCM_RELEASES.index(release) + 1]


def hip_side(cache: Path, releases: tuple[str, ...] = releases_through(CURRENT_ROCM)) -> HipSide:
    """The HIP side of ``releases`` (oldest first); the last must be in the cache (it decides what is supported)."""
    indexes: dict[str, HeaderIndex] = {}
    all_files: dict[str, dict[str, Path]] = {}
    clang = header_files(cache / "hip" / "clang", ("*.h",))
    for release in releases:
        rdir = cache / "hip" / release
        if not rdir.is_dir():
            continue
        files: list[tuple[str, Path]] = []
        for pkg in sorted(p for p in rdir.iterdir() if p.is_dir()):
            for rel, path in header_files(pkg, _HIP_PATTERNS):
                if not HIP_EXCLUDE.search(rel):
                    files.append((rel, path))
        files += clang  # hipcc declares device math in clang's own HIP headers
        files.sort(key=lambda f: f[0])
        all_files[release] = {rel: path for rel, path in files}
        indexes[release] = build_index(files, dict(HIP_NAMESPACES))
    if releases[-1] not in indexes:
        raise GenerationError(
            f"no HIP headers for ROCm {releases[-1]} under {cache / 'hip'}; run the fetch step "
            f"(python -m hipify.tablegen fetch --only debian --rocm {releases[-1]})"
        )
    return HipSide(indexes, all_files, preincluded=frozenset(rel for rel, _ in clang))


def nvidia_pairs(cache: Path, releases: tuple[str, ...] = ROCM_RELEASES) -> dict[str, set[str]]:
    indexes = []
    for release in releases:
        files = header_files(cache / "hip" / release, NVIDIA_BACKEND)
        indexes.append(build_index([(rel.split("/", 1)[1], path) for rel, path in files]))
    return backend_pairs(indexes)
