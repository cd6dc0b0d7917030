"""The CUDA build that version and architecture conditions are decided for (``rules/build_conditions.py``).

Under HIP, nvcc's version macros, the runtime's version numbers and ``__CUDA_ARCH__`` are undefined: 0 in
``#if``, so code written for CUDA 8 or for GPUs before sm_60 would be compiled. The translation decides such
conditions as a CUDA build decides them, preferring the newest one whose branches HIP can compile:

- the newest build is the CUDA version the mapping table was generated from (its ``generated_from`` names the CUDA
  runtime wheel, ``tests/test_build_conditions.py`` keeps the two the same) for the newest architecture whose device
  features HIP's headers provide as functions: sm_80 (FP16 and bf16 arithmetic, double-precision atomics,
  ``__reduce_*_sync``); what sm_90 adds (thread-block clusters, TMA, wgmma) HIP lacks. In the host pass
  ``__CUDA_ARCH__`` is undefined, as with nvcc;
- where that build would take a branch HIP cannot compile (an inline-PTX fast path, an API HIP lacks), an older
  architecture, then an older CUDA version, is tried (:data:`ARCHITECTURES`, :data:`CUDA_VERSIONS`): the tiered code
  of modern projects keeps a portable path beside each fast one, and an older build takes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..knowledge.cuda_build import CUDA_VERSION

DEVICE_ARCH = 800

# The mainline architectures a build may target, newest first (never newer than DEVICE_ARCH).
ARCHITECTURES = (800, 750, 700, 600, 500, 350, 300)
# CUDA releases whose version checks code commonly makes, newest first.
CUDA_VERSIONS = (CUDA_VERSION, (12, 9), (12, 0), (11, 8), (11, 0), (10, 2), (10, 0), (9, 2), (9, 0), (8, 0))

ARCH_MACROS = frozenset(("__CUDA_ARCH__",))
VERSION_MACROS = frozenset(("__CUDACC_VER_MAJOR__", "__CUDACC_VER_MINOR__", "CUDART_VERSION", "CUDA_VERSION"))
BUILD_MACROS = ARCH_MACROS | VERSION_MACROS


@dataclass(frozen=True)
class Assumed:
    """A macro's value in the device pass and in the host pass (None: not defined there)."""

    device: int | None
    host: int | None


@dataclass(frozen=True)
class Build:
    """One CUDA build: a toolkit version and a device architecture."""

    version: tuple[int, int] = CUDA_VERSION
    arch: int = DEVICE_ARCH

    def assumed(self, name: str) -> Assumed:
        """What the build makes of one of :data:`BUILD_MACROS`."""
        major, minor = self.version
        number = major * 1000 + minor * 10
        values = {
            "__CUDACC_VER_MAJOR__": Assumed(major, major),
            "__CUDACC_VER_MINOR__": Assumed(minor, minor),
            "CUDART_VERSION": Assumed(number, number),
            "CUDA_VERSION": Assumed(number, number),
            "__CUDA_ARCH__": Assumed(self.arch, None),
        }
        return values[name]

    def describe(self) -> str:
        """How messages name the build: ``CUDA 13.5 for sm_80``."""
        return f"CUDA {self.version[0]}.{self.version[1]} for sm_{self.arch // 10}"

    @classmethod
    def named_in(cls, text: str) -> Build | None:
        """The build a message names (:meth:`describe`'s words), None when it names none: what a file's translation
        decided its conditions as, read back from its findings."""
        m = _DESCRIBED.search(text)
        return cls((int(m.group(1)), int(m.group(2))), int(m.group(3)) * 10) if m else None


_DESCRIBED = re.compile(r"\bCUDA (\d+)\.(\d+) for sm_(\d+)\b")


NEWEST = Build()
# The macros whose conditions are decided, as the newest build has them. Each is a table row that HIP leaves
# undefined where its value is used.
ASSUMED: dict[str, Assumed] = {name: NEWEST.assumed(name) for name in sorted(BUILD_MACROS)}


def describe() -> str:
    """How messages name the newest build: ``CUDA 13.5 for sm_80``."""
    return NEWEST.describe()
