"""API family names as people say them: ``cublas`` for the table's ``blas``, ``cudnn`` for ``dnn``.

Wherever a family is named (``tables --api``, ``explain``), either spelling works, in any case.
"""

from __future__ import annotations

import difflib

# The table's family -> the names people also use for it (the CUDA library's own name first).
ALIASES: dict[str, tuple[str, ...]] = {
    "runtime": ("cudart", "cuda_runtime", "cuda-runtime"),
    "driver": ("cuda_driver", "cuda-driver", "cudadriver"),
    "blas": ("cublas",),
    "blaslt": ("cublaslt",),
    "dnn": ("cudnn",),
    "fft": ("cufft",),
    "rand": ("curand",),
    "sparse": ("cusparse",),
    "solver": ("cusolver", "cusolverdn", "cusolversp"),
    "rtc": ("nvrtc",),
    "cub": ("hipcub",),
    "complex": ("cucomplex",),
    "nccl": ("rccl",),
    "device": ("cuda_device", "device_functions"),
    "compiler": ("nvcc",),
    "headers": ("includes",),
}
_BY_NAME = {name: family for family, names in ALIASES.items() for name in (family, *names)}


def family_of(name: str) -> str:
    """The table's family for ``name`` (raises ValueError naming the known ones)."""
    key = name.strip().lower()
    family = _BY_NAME.get(key)
    if family is None:
        close = difflib.get_close_matches(key, list(_BY_NAME), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ValueError(f"unknown API family {name!r}{hint} (known: {', '.join(known_names())})")
    return family


def known_names() -> list[str]:
    """Each family with its best-known alias, e.g. 'blas (cublas)'."""
    return [f"{family} ({names[0]})" if names else family for family, names in ALIASES.items()]
