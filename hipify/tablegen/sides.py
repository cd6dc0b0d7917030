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
    indexes: dict[str, HeaderIndex]  # ROCm release -> index
    files: dict[str, dict[str, Path]]  # ROCm release -> relative header -> file
    # headers hipcc reads before the file's first line: clang's __clang_hip_*.h (`-include
    # __clang_hip_runtime_wrapper.h`, which includes the others)
    preincluded: frozenset[str] = frozenset()

    @property
    def current(self) -> HeaderIndex:
        return self.indexes[CURRENT_ROCM]

    def since(self, name: str) -> str:
        return next((r for r in ROCM_RELEASES if r in self.indexes and name in self.indexes[r]), "")

    def header_since(self, rel: str) -> str:
        return next((r for r in ROCM_RELEASES if rel in self.files.get(r, {})), "")


def cuda_rel(path_under_family: str) -> str:
    """'toolkit/crt/math_functions.h' -> 'crt/math_functions.h'; 'toolkit/cccl/cub/x.cuh' -> 'cub/x.cuh'."""
    rel = path_under_family.split("/", 1)[1] if "/" in path_under_family else path_under_family
    return rel.removeprefix("cccl/")


def cuda_index(cache: Path, family: str, patterns: tuple[str, ...], spec: ApiSpec) -> HeaderIndex:
    root = cache / "cuda" / family
    files = [(cuda_rel(rel), path) for rel, path in header_files(root, patterns)]
    return build_index(files, dict(spec.namespace))


def hip_side(cache: Path, releases: tuple[str, ...] = ROCM_RELEASES) -> HipSide:
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
    if CURRENT_ROCM not in indexes:
        raise GenerationError(f"no HIP headers for ROCm {CURRENT_ROCM} under {cache / 'hip'}; run the fetch step")
    return HipSide(indexes, all_files, preincluded=frozenset(rel for rel, _ in clang))


def nvidia_pairs(cache: Path) -> dict[str, set[str]]:
    indexes = []
    for release in ROCM_RELEASES:
        files = header_files(cache / "hip" / release, NVIDIA_BACKEND)
        indexes.append(build_index([(rel.split("/", 1)[1], path) for rel, path in files]))
    return backend_pairs(indexes)
