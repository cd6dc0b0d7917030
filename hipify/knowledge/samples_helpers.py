"""NVIDIA's CUDA samples helper headers and the names each declares.

The samples keep error checks, device selection, timers, command-line parsing and image files in helper headers of
their own (``Common/helper_cuda.h``, ``helper_timer.h``, ...). Code copied out of the samples often includes them
without the tree holding them: the translation cannot see what they declare, and the port fails at the include.
What is known here is which helper declares which names, so that such a file is reported once with what it uses
from the missing helper (``rules/samples_helpers.py``, HPY125), and which helpers have a HIP version of our own
(``hipify/data/samples_helpers/``, written from NVIDIA's documented behaviour, with HIP calls), which the output gets
beside the compatibility header where the tree lacks the helper (HPY035). Facts about the helpers' public names,
listed by hand: no code or text of the headers is copied.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources

_STRING = (
    "checkCmdLineFlag getCmdLineArgumentInt getCmdLineArgumentFloat getCmdLineArgumentString getCmdLineArgumentValue "
    "getCmdLineArgumentListString stringRemoveDelimiter getFileExtension sdkFindFilePath EXIT_WAIVED STRCASECMP "
    "STRNCASECMP STRCPY FOPEN FOPEN_FAIL SSCANF SPRINTF"
)
_TIMER = (
    "StopWatchInterface StopWatchLinux StopWatchWin sdkCreateTimer sdkDeleteTimer sdkStartTimer sdkStopTimer "
    "sdkResetTimer sdkGetAverageTimerValue sdkGetTimerValue"
)
_IMAGE = (
    "sdkLoadPGM sdkSavePGM sdkLoadPPM4ub sdkSavePPM4ub sdkLoadPPM4 sdkComparePGM sdkComparePPM sdkCompareL2fe "
    "sdkCompareData sdkCompareDataAsFloatThreshold sdkCompareBin2BinFloat sdkCompareBin2BinUint sdkReadFile "
    "sdkWriteFile sdkDumpBin sdkReadFileBlocks __loadPPM __savePPM compareData compareDataAsFloatThreshold"
)
_CUDA = (
    "checkCudaErrors getLastCudaError printLastCudaError findCudaDevice findIntegratedGPU gpuGetMaxGflopsDeviceId "
    "gpuDeviceInit checkCudaCapabilities _ConvertSMVer2Cores _ConvertSMVer2ArchName _cudaGetErrorEnum ftoi"
)
_CUDA_DRIVER = (
    "checkCudaErrors getCudaAttribute findCudaDeviceDRV gpuGetMaxGflopsDeviceIdDRV findCudaGLDeviceDRV "
    "checkCudaCapabilitiesDRV gpuDeviceInitDRV _ConvertSMVer2CoresDRV getCudaDrvErrorString"
)
_MATH = "make_float2 make_float3 make_float4 make_int2 make_int3 make_int4 lerp clamp dot length normalize cross " \
    "reflect smoothstep fracf floorf fmodf"  # fmt: skip
_MULTIPROCESS = (
    "sharedMemoryInfo sharedMemoryCreate sharedMemoryOpen sharedMemoryClose Process spawnProcess waitProcess "
    "ipcHandle ipcCreateSocket ipcOpenSocket ipcCloseSocket ipcRecvShareableHandle ipcSendShareableHandle"
)

# Header (as included, its last path component) -> the names it declares.
HELPERS: dict[str, frozenset[str]] = {
    "helper_string.h": frozenset(_STRING.split()),
    "helper_timer.h": frozenset(_TIMER.split()),
    "helper_image.h": frozenset(_IMAGE.split()),
    "helper_cuda.h": frozenset(_CUDA.split()),
    "helper_cuda_drvapi.h": frozenset(_CUDA_DRIVER.split()),
    "helper_math.h": frozenset(_MATH.split()),
    "helper_multiprocess.h": frozenset(_MULTIPROCESS.split()),
    "helper_gl.h": frozenset(("isGLVersionSupported", "areGLExtensionsSupported")),
    # the helper that includes the string, timer and image helpers
    "helper_functions.h": frozenset((_STRING + " " + _TIMER + " " + _IMAGE).split()),
}


def helper_of(include: str) -> str:
    """The samples helper an include names (``../Common/helper_cuda.h`` -> ``helper_cuda.h``), or ''."""
    name = include.strip().replace("\\", "/").rsplit("/", 1)[-1]
    return name if name in HELPERS else ""


# Helpers with a HIP version written for hipify-py, and the helpers each includes (written beside it too).
HIP_VERSIONS: dict[str, tuple[str, ...]] = {
    "helper_cuda.h": ("helper_string.h",),
    "helper_string.h": (),
    "helper_timer.h": (),
    "helper_image.h": ("helper_string.h",),
    "helper_math.h": (),
    "helper_functions.h": ("helper_image.h", "helper_string.h", "helper_timer.h"),
}

# How a translation names, among its compatibility entries, a helper the output gets (``Result.compat``).
ENTRY_PREFIX = "samples:"


def helper_entry(helper: str) -> str:
    return ENTRY_PREFIX + helper


def helpers_of_entries(entries: Iterable[str]) -> tuple[str, ...]:
    """The helpers (with those they include) that a translation's compatibility entries name, sorted."""
    wanted: set[str] = set()
    todo = [e[len(ENTRY_PREFIX) :] for e in entries if e.startswith(ENTRY_PREFIX)]
    while todo:
        helper = todo.pop()
        if helper in HIP_VERSIONS and helper not in wanted:
            wanted.add(helper)
            todo.extend(HIP_VERSIONS[helper])
    return tuple(sorted(wanted))


def without_helpers(entries: Iterable[str]) -> list[str]:
    """The compatibility entries that are the catalog's (not a helper's)."""
    return [e for e in entries if not e.startswith(ENTRY_PREFIX)]


@cache
def hip_version(helper: str) -> str:
    """The text of our HIP version of a helper."""
    base = resources.files("hipify").joinpath("data").joinpath("samples_helpers").joinpath(helper)
    return base.read_text(encoding="utf-8")
