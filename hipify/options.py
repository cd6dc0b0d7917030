"""Translation settings: one frozen value passed to every engine and rule."""

from __future__ import annotations

import re
from dataclasses import dataclass

# The newest ROCm the mapping table was generated for (a test holds the two equal): people porting now target the
# ROCm they install, and output for an older one is a flag away (--rocm 6.4).
DEFAULT_ROCM = (7, 2)
# AMD GPU targets build files compile for when neither --offload-arch nor the configuration names one.
DEFAULT_OFFLOAD_ARCH: tuple[str, ...] = ("gfx90a",)
_OFFLOAD_ARCH = re.compile(r"gfx[0-9a-f]{2,5}(?:-generic)?(?::(?:xnack|sramecc)[+-])*")


def parse_rocm_version(text: str) -> tuple[int, int]:
    """'6.4' -> (6, 4); '5' -> (5, 0). Raises ValueError on junk."""
    parts = text.strip().split(".")
    if not parts or not all(p.isdigit() for p in parts) or len(parts) > 3:
        raise ValueError(f"not a ROCm version: {text!r} (expected e.g. 6.4)")
    major = int(parts[0])
    minor = int(parts[1]) if len(parts) > 1 else 0
    return (major, minor)


def parse_offload_arch(values: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """'gfx90a,gfx942' (or a list of such) -> ('gfx90a', 'gfx942'). Raises ValueError on a name that is not an
    AMD GPU target."""
    items = [values] if isinstance(values, str) else list(values)
    targets: list[str] = []
    for item in items:
        for target in item.split(","):
            target = target.strip()
            if not _OFFLOAD_ARCH.fullmatch(target):
                raise ValueError(f"not an AMD GPU target: {target!r} (expected e.g. gfx90a, gfx942, gfx1100)")
            if target not in targets:
                targets.append(target)
    if not targets:
        raise ValueError("no AMD GPU target given (expected e.g. gfx90a)")
    return tuple(targets)


@dataclass(frozen=True)
class Options:
    engine: str = "auto"  # auto | clang | regex
    roc: bool = False  # prefer rocBLAS/rocSPARSE/... names where they exist
    miopen: bool = False  # translate cuDNN to MIOpen
    experimental: bool = False  # also rewrite APIs HIP marks experimental
    hip_kernel_syntax: bool = False  # k<<<...>>>(...) -> hipLaunchKernelGGL(...)
    use_hip_data_types: bool = False  # cudaDataType -> hipDataType, not hipblasDatatype_t
    amap: bool = False  # translate as much as possible (ignore skip flags)
    skip_excluded_blocks: bool = False  # leave inactive #if branches alone
    rocm_version: tuple[int, int] = DEFAULT_ROCM
    insert_runtime_include: bool = True
    compat_header: bool = True  # provide small CUDA features ROCm lacks in hipify_compat.h
    warn_unknown: bool = True  # warn about cuda*/cu*/CU* names the table lacks
    rename_extensions: bool = False  # .cu/.cuh -> .hip/.cuh includes (with --out-dir --rename)
    offload_arch: tuple[str, ...] = DEFAULT_OFFLOAD_ARCH  # build files: the AMD GPU targets (--offload-arch)
    # Parser inputs (clang engine; the regex engine uses defines for #if evaluation only)
    defines: tuple[str, ...] = ()
    include_dirs: tuple[str, ...] = ()
    clang_args: tuple[str, ...] = ()
    build_dir: str = ""
    cuda_path: str = ""  # "" = auto-detect; a path; "none" = pretend there is none
    clang_parse: str = "auto"  # auto: parse where the AST can change the answer; always: every file
    use_cache: bool = True
    # The project's own names (config allow-list): never renamed, never reported as CUDA APIs.
    project_names: tuple[str, ...] = ()
    # The user's mapping overrides (config): (CUDA name, target), applied over the table.
    mappings: tuple[tuple[str, str], ...] = ()

    @property
    def translate_inactive(self) -> bool:
        return self.amap or not self.skip_excluded_blocks

    def cache_key(self) -> str:
        """Everything that can change an engine's output, as text."""
        return repr(self)
