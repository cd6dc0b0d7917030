"""The CUDA build that version and architecture conditions are decided for (``rules/build_conditions.py``).

Under HIP, nvcc's version macros, the runtime's version numbers and ``__CUDA_ARCH__`` are undefined: 0 in
``#if``, so code written for CUDA 8 or for GPUs before sm_60 would be compiled. The translation decides such
conditions as a current CUDA build for a current GPU decides them:

- the CUDA version is the newest one the mapping table was generated from (its ``generated_from`` names the CUDA
  runtime wheel, ``tests/test_build_conditions.py`` keeps the two the same);
- the device pass targets the newest architecture whose device features HIP's headers provide as functions: sm_80
  (FP16 and bf16 arithmetic, double-precision atomics, ``__reduce_*_sync``); what sm_90 adds (thread-block clusters,
  TMA, wgmma) HIP lacks. In the host pass ``__CUDA_ARCH__`` is undefined, as with nvcc.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..knowledge.cuda_build import CUDA_VERSION

DEVICE_ARCH = 800


@dataclass(frozen=True)
class Assumed:
    """A macro's value in the device pass and in the host pass (None: not defined there)."""

    device: int | None
    host: int | None


def _version_number() -> int:
    return CUDA_VERSION[0] * 1000 + CUDA_VERSION[1] * 10


# The macros whose conditions are decided. Each is a table row that HIP leaves undefined where its value is used.
ASSUMED: dict[str, Assumed] = {
    "__CUDACC_VER_MAJOR__": Assumed(CUDA_VERSION[0], CUDA_VERSION[0]),
    "__CUDACC_VER_MINOR__": Assumed(CUDA_VERSION[1], CUDA_VERSION[1]),
    "CUDART_VERSION": Assumed(_version_number(), _version_number()),
    "CUDA_VERSION": Assumed(_version_number(), _version_number()),
    "__CUDA_ARCH__": Assumed(DEVICE_ARCH, None),
}


def describe() -> str:
    """How messages name the build: ``CUDA 13.5 for sm_80``."""
    return f"CUDA {CUDA_VERSION[0]}.{CUDA_VERSION[1]} for sm_{DEVICE_ARCH // 10}"
