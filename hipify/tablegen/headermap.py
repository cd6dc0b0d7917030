"""Header rows (cuda_runtime.h -> hip/hip_runtime.h) and include-guard rows (__CUDA_RUNTIME_H__ -> a macro the
HIP header defines), derived from the two header sets.

Targets use ROCm 6.x's per-library folders (hipblas/hipblas.h). A candidate counts only if that file exists in the
HIP package of the current release.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from ..knowledge.table import Row
from .headers import header_files
from .matcher import Matcher
from .scan import scan_text
from .sides import HipSide
from .transitive import brought_names

# CUDA headers that become header rows: (globs under cuda/cu13/, api)
CUDA_HEADER_SOURCES: tuple[tuple[str, str], ...] = (
    ("toolkit/*.h", "runtime"),
    ("toolkit/*.hpp", "runtime"),
    ("toolkit/cooperative_groups/*.h", "device"),
    ("cublas/*.h", "blas"),
    ("curand/*.h", "rand"),
    ("cufft/*.h", "fft"),
    ("cusparse/*.h", "sparse"),
    ("cusolver/*.h", "solver"),
    ("cudnn/*.h", "dnn"),
    ("nvrtc/*.h", "rtc"),
    ("nvtx/nvtx3/*.h", "nvtx"),
    ("nccl/*.h", "nccl"),
    ("toolkit/cccl/cub/*.cuh", "cub"),
    ("toolkit/cccl/cub/block/*.cuh", "cub"),
    ("toolkit/cccl/cub/device/*.cuh", "cub"),
    # CUB's dispatch layer (cub::DispatchRadixSort): hipCUB has none, so its umbrella header stands for it and the
    # dispatch names, which the table marks unsupported, are left out where they are used
    ("toolkit/cccl/cub/device/dispatch/*.cuh", "cub"),
    ("toolkit/cccl/cub/warp/*.cuh", "cub"),
    ("toolkit/cccl/cub/thread/*.cuh", "cub"),
    ("toolkit/cccl/cub/iterator/*.cuh", "cub"),
)
# Headers of older CUDA releases that CUDA 13 no longer ships but code still includes: (family, glob, api).
# NVTX 2's nvToolsExt.h & co. at the include root (NVTX 3 moved them under nvtx3/).
OLDER_HEADER_SOURCES: tuple[tuple[str, str, str], ...] = (("cu11", "nvtx/*.h", "nvtx"),)
# Tool and profiler headers that are not part of a translatable API.
_SKIP = re.compile(
    r"^(cupti|nvperf|generated_|nvvm\.h|fatbinary_section|nv_decode|cudart_platform|cuda_stdint"
    r"|.*Typedefs\.h$|cudnn_.*_v\d+\.h$|cudnn_version|nvblas)"
)

# Headers whose HIP counterpart is not derivable from the file name.
_SPECIAL: dict[str, tuple[str, str]] = {
    "cuda.h": ("hip/hip_runtime.h", ""),
    # A "main" header like cuda_runtime.h (CONVENTIONS.md): one hip_runtime.h include, duplicates dropped.
    "cuda_runtime_api.h": ("hip/hip_runtime.h", ""),
    "cudaProfiler.h": ("hip/hip_runtime_api.h", ""),
    "cuda_profiler_api.h": ("hip/hip_runtime_api.h", ""),
    "device_launch_parameters.h": ("hip/hip_runtime.h", ""),
    "builtin_types.h": ("hip/hip_runtime.h", ""),
    "cuComplex.h": ("hip/hip_complex.h", ""),
    "cudaGL.h": ("hip/hip_gl_interop.h", ""),
    "cooperative_groups.h": ("hip/hip_cooperative_groups.h", ""),
    "nvrtc.h": ("hip/hiprtc.h", ""),
    "cublasLt.h": ("hipblaslt/hipblaslt.h", ""),
    "curand.h": ("hiprand/hiprand.h", "rocrand/rocrand.h"),
    "cufft.h": ("hipfft/hipfft.h", ""),
    "cufftXt.h": ("hipfft/hipfftXt.h", ""),
    "cub/cub.cuh": ("hipcub/hipcub.hpp", ""),
    "nccl.h": ("rccl/rccl.h", ""),
    "nvtx3/nvToolsExt.h": ("roctracer/roctx.h", ""),
    # NVTX's CUDA naming extensions include nvToolsExt.h: code including them uses its ranges and marks
    "nvtx3/nvToolsExtCuda.h": ("roctracer/roctx.h", ""),
    "nvtx3/nvToolsExtCudaRt.h": ("roctracer/roctx.h", ""),
    "nvToolsExt.h": ("roctracer/roctx.h", ""),
    "nvToolsExtCuda.h": ("roctracer/roctx.h", ""),
    "nvToolsExtCudaRt.h": ("roctracer/roctx.h", ""),
}
# Device-side toolkit headers whose declarations HIP gathers in hip_runtime.h.
_RUNTIME_UMBRELLA = re.compile(
    r"^(sm_\d+_\w+|device_\w+|crt/\w+|cuda_device_runtime_api|host_\w+|common_functions"
    r"|texture_fetch_functions|surface_functions|\w+_indirect_functions|vector_functions"
    r"|cuda_runtime|cuda_runtime_api|driver_functions)\.h(pp)?$"
)


def _candidates(rel: str) -> tuple[list[str], list[str]]:
    if rel in _SPECIAL:
        hip, roc = _SPECIAL[rel]
        return [hip], [roc] if roc else []
    base = rel.rsplit("/", 1)[-1]
    if rel.startswith("cub/"):
        return ["hip" + rel.rsplit(".", 1)[0] + ".hpp", "hipcub/hipcub.hpp"], []
    if base.startswith("cublas"):
        return ["hipblas/hipblas.h"], ["rocblas/rocblas.h"]
    if base.startswith("curand"):
        return ["hiprand/hiprand_kernel.h"], ["rocrand/rocrand_kernel.h"]
    if base.startswith("cufft") or base == "cudalibxt.h":
        return ["hipfft/hipfft.h"], []
    if base.startswith("cusparse"):
        return ["hipsparse/hipsparse.h"], ["rocsparse/rocsparse.h"]
    if base.startswith("cusolver"):
        return ["hipsolver/hipsolver.h"], ["rocsolver/rocsolver.h"]
    if base.startswith("cudnn"):
        return [], ["miopen/miopen.h"]
    stem = base.rsplit(".", 1)[0]
    out = [f"hip/{base}", f"hip/hip_{stem.removeprefix('cuda_')}.h"]
    if rel.startswith("cooperative_groups/"):
        # CUDA's cooperative-groups extensions (reduce, scan, memcpy_async) have no HIP header (ROCm 6.4)
        return [f"hip/hip_{rel.replace('/', '_')}"], []
    if _RUNTIME_UMBRELLA.match(rel):
        out.append("hip/hip_runtime.h")
    return out, []


def _pick(hip: HipSide, cands: list[str]) -> tuple[str, str, str]:
    """(target, status, since) for the first candidate file the current release ships."""
    current = hip.current_files
    for cand in cands:
        if cand in current:
            return cand, "supported", hip.header_since(cand)
    for cand in cands:
        since = hip.header_since(cand)
        if since:
            return cand, "removed", since
    return "", "unsupported", ""


def _cuda_headers(cache: Path) -> list[tuple[str, Path, str]]:
    out: dict[str, tuple[str, Path, str]] = {}
    for pattern, api in CUDA_HEADER_SOURCES:
        for rel, path in header_files(cache / "cuda" / "cu13", (pattern,)):
            name = rel.split("/", 1)[1]
            name = name.removeprefix("cccl/")
            if _SKIP.match(name.rsplit("/", 1)[-1]) or name in out:
                continue
            out[name] = (name, path, api)
    for family, pattern, api in OLDER_HEADER_SOURCES:
        for rel, path in header_files(cache / "cuda" / family, (pattern,)):
            name = rel.split("/", 1)[1]
            if not _SKIP.match(name.rsplit("/", 1)[-1]):
                out.setdefault(name, (name, path, api))
    return [out[k] for k in sorted(out)]


_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', re.MULTILINE)


def declared_words(path: Path, rel: str, translated: frozenset[str]) -> str:
    """The names a header declares, with those of the headers it includes that HIP has no counterpart of either
    (crt/mma.h behind mma.h, cudnn_ops.h behind cudnn.h; a ``translated`` one is included in its own right where
    the file does): C++ names by their outermost namespace, not its include guard. Space-separated, sorted."""
    root = _root_of(path, rel)
    words: set[str] = set()
    seen: set[Path] = set()
    todo = [path]
    while todo:
        file = todo.pop()
        if file in seen or not file.is_file():
            continue
        seen.add(file)
        text = file.read_text(errors="replace")
        scan = scan_text(text)
        for decl in scan.decls:
            word = decl.namespace.split("::", 1)[0] if decl.namespace else decl.name
            if word and word != scan.include_guard:
                words.add(word)
        for name in _INCLUDE.findall(text):
            if name in translated:
                continue
            for base in (file.parent, root):
                if (base / name).is_file():
                    todo.append(base / name)
                    break
    return " ".join(sorted(words))


def _root_of(path: Path, rel: str) -> Path:
    """The include folder a header is found in under its relative name."""
    return Path(str(path)[: -len(rel)]) if str(path).endswith(rel) else path.parent


def _targets(hip: HipSide, rel: str) -> tuple[tuple[str, str, str], tuple[str, str, str]]:
    """(target, status, since) of a CUDA header on the HIP and the ROC side."""
    hip_cands, roc_cands = _candidates(rel)
    return _pick(hip, hip_cands), (_pick(hip, roc_cands) if roc_cands else ("", "unsupported", ""))


def header_rows(cache: Path, matcher: Matcher, claimed: dict[str, Row]) -> Iterator[Row]:
    hip = matcher.hip
    guards_hip = hip.current.guards
    headers = _cuda_headers(cache)
    picked = {rel: _targets(hip, rel) for rel, _, _ in headers}
    translated = frozenset(rel for rel, (hip_t, roc_t) in picked.items() if hip_t[0] or roc_t[0])
    release = cache / "hip" / hip.release
    hip_roots = tuple(sorted(p for p in release.iterdir() if p.is_dir())) if release.is_dir() else ()
    toolkit = cache / "cuda" / "cu13" / "toolkit"
    for rel, path, api in headers:
        (target, status, since), (roc, roc_status, roc_since) = picked[rel]
        yield Row(
            cuda=rel,
            hip=target,
            roc=roc,
            kind="header",
            api="headers",
            hip_status=status,
            roc_status=roc_status,
            cuda_header=rel,
            hip_header=target,
            roc_header=roc,
            hip_since=since,
            roc_since=roc_since,
            source="header-naming",
            declares="" if target or roc else declared_words(path, rel, translated),
            brings=brought_names(rel, (_root_of(path, rel), toolkit / "cccl", toolkit), target, hip_roots)
            if status == "supported"
            else "",
        )
        guard = scan_text(path.read_text(errors="replace")).include_guard
        hip_guard = guards_hip.get(target or roc, "")
        if not guard:
            continue
        existing = claimed.get(guard)
        guard_api = existing.api if existing else api
        row = Row(
            cuda=guard,
            kind="macro",
            api=guard_api,
            cuda_header=rel,
            source="include-guard",
            note=f"include guard of {rel}; no matching HIP header guard",
        )
        if not hip_guard:
            yield row
            continue
        since = matcher.target(hip_guard, "include-guard").since
        note = f"include guard of {rel}; {target or roc} defines {hip_guard}"
        if target:
            yield replace(row, hip=hip_guard, hip_status="supported", hip_header=target, hip_since=since, note=note)
        else:  # cuDNN's guards point at MIOpen, a ROC-only target
            yield replace(row, roc=hip_guard, roc_status="supported", roc_header=roc, roc_since=since, note=note)
