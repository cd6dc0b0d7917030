"""Which headers feed which API family, and the order in which families claim a shared name.

Paths are globs relative to a cache root (see fetch.py for the layout). A CUDA name declared by the headers of
two families (``CUuuid`` in both driver_types.h and cuda.h) belongs to the first family in ``API_ORDER``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Families in claim order; also the order of mapping_tables/*.json files in docs.
API_ORDER = (
    "runtime",
    "driver",
    "device",
    "complex",
    "blas",
    "blaslt",
    "rand",
    "fft",
    "sparse",
    "solver",
    "dnn",
    "rtc",
    "cub",
    "nvtx",
    "nccl",
)

# ROCm release labels of the cache (hip/<label>/...), oldest first.
ROCM_RELEASES = ("5.2", "5.7", "6.4", "7.2")
# Releases the table is generated for: targets verified against each one's headers (the older releases only say
# since when a target exists). A row holds the newest one's view and, where an older one's differs, that view too
# (Row.by_rocm): ROCm changes its API at major versions (7.0 dropped hipBLAS's v1 API, made the warp *_sync
# builtins default, added the _v2 memory-location APIs), so a 6.x target and a 7.x one need different text.
TARGET_RELEASES = ("6.4", "7.2")
CURRENT_ROCM = TARGET_RELEASES[-1]
# CUDA families of the cache (cuda/<family>/...) with the version each stands for, oldest first.
CUDA_FAMILIES = (("cu11", "11.8"), ("cu12", "12.9"), ("cu13", "13.0"))


@dataclass(frozen=True)
class ApiSpec:
    api: str
    cuda: tuple[str, ...]  # globs under cuda/cu13/
    older: tuple[str, ...] = ()  # globs under cuda/cu12/ and cuda/cu11/ (removed-API detection)
    keep: str = r".*"  # regex a CUDA name must match to become a row
    namespace: tuple[tuple[str, str], ...] = ()  # (path prefix, C++ namespace opened by a macro)


_RUNTIME_FILES = (
    "toolkit/cuda_runtime_api.h",
    "toolkit/cuda_runtime.h",
    "toolkit/driver_types.h",
    "toolkit/vector_types.h",
    "toolkit/surface_types.h",
    "toolkit/texture_types.h",
    "toolkit/channel_descriptor.h",
    "toolkit/cuda_device_runtime_api.h",
    "toolkit/library_types.h",
    "toolkit/driver_functions.h",
    "toolkit/cuda_profiler_api.h",
    "toolkit/cuda_gl_interop.h",
    "toolkit/cuda_egl_interop.h",
    "toolkit/cuda_vdpau_interop.h",
    "toolkit/cuda_texture_types.h",
    "toolkit/cuda_surface_types.h",
    "toolkit/vector_functions.h",
    "toolkit/vector_functions.hpp",
    "toolkit/device_types.h",
    "toolkit/crt/host_defines.h",  # CUDARTAPI
)
_DEVICE_FILES = (
    "toolkit/crt/math_functions.h",
    "toolkit/crt/device_functions.h",
    "toolkit/crt/device_double_functions.h",
    "toolkit/device_atomic_functions.h",
    "toolkit/sm_*_atomic_functions.h",
    "toolkit/sm_*_intrinsics.h",
    "toolkit/crt/sm_*_rt.h",
    "toolkit/cuda_fp16.h",
    "toolkit/cuda_fp16.hpp",
    "toolkit/cuda_bf16.h",
    "toolkit/cuda_bf16.hpp",
    "toolkit/cuda_fp8.h",
    "toolkit/cuda_fp8.hpp",
    "toolkit/cuda_fp6.h",
    "toolkit/cuda_fp6.hpp",
    "toolkit/cuda_fp4.h",
    "toolkit/cuda_fp4.hpp",
    "toolkit/math_constants.h",
    "toolkit/surface_indirect_functions.h",
    "toolkit/texture_indirect_functions.h",
    "toolkit/texture_fetch_functions.h",
    "toolkit/surface_functions.h",
)


def _older(files: tuple[str, ...], lib: str = "cuda_runtime") -> tuple[str, ...]:
    return tuple(f.replace("toolkit/crt/", f"{lib}/").replace("toolkit/", f"{lib}/") for f in files)


SPECS: tuple[ApiSpec, ...] = (
    ApiSpec(
        "runtime",
        _RUNTIME_FILES,
        _older(_RUNTIME_FILES),
        keep=r"^(cuda[A-Z]\w*|CUDART_\w+|cudaSurface\w*|make_\w+|dim3|surfaceReference|textureReference|texture|surface"
        r"|(u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4](_\w+)?|CUuuid\w*|CUDA_\w+|cudaEgl\w+"
        r"|CUDARTAPI\w*)$",
    ),
    ApiSpec(
        "driver",
        ("toolkit/cuda.h", "toolkit/cudaProfiler.h", "toolkit/cudaGL.h", "toolkit/cudaEGL.h", "toolkit/cudaVDPAU.h"),
        (
            "cuda_runtime/cuda.h",
            "cuda_runtime/cudaProfiler.h",
            "cuda_runtime/cudaGL.h",
            "cuda_runtime/cudaEGL.h",
            "cuda_runtime/cudaVDPAU.h",
        ),
        keep=r"^(cu[A-Z]\w*|CU[A-Za-z_]\w*|CUDA_\w+|cu\w+_st|cuuint(?:32|64)_t)$",
    ),
    ApiSpec(
        "device",
        _DEVICE_FILES,
        _older(_DEVICE_FILES),
        # CUDA's own helpers (__uAtomicAdd, __hcos_internal, __float_simpl_sinf, __FLOAT_BITS) are not API; the
        # enumerators fp8 conversions and __nv_atomic_* take (__NV_SATFINITE, __NV_E4M3, __NV_ATOMIC_RELAXED) are
        keep=r"^(?!__cuda|__nvvm|__internal|_Z|__CUDA|__cudart|__NV_(?:FP8|SATFINITE|NOSAT)_|__[a-z]*Atomic"
        r"|\w*_internal|__float_simpl|__(?!NV_)[A-Z_]+$)(__\w+|[a-z]\w*|CUDART_\w+)$",
    ),
    ApiSpec("complex", ("toolkit/cuComplex.h",), keep=r"^(make_)?cu\w+$"),
    ApiSpec(
        "blas",
        ("cublas/cublas_api.h", "cublas/cublas_v2.h", "cublas/cublas.h", "cublas/cublasXt.h"),
        keep=r"^(cublas|CUBLAS)(?!Lt|LT)\w*$",
    ),
    ApiSpec("blaslt", ("cublas/cublasLt.h",), keep=r"^(cublasLt|CUBLASLT)\w*$"),
    ApiSpec("rand", ("curand/curand*.h",), keep=r"^(curand|CURAND|skipahead)\w*$"),
    # cudalibxt.h: the multi-GPU descriptors cufftXt takes (cudaLibXtDesc -> hipLibXtDesc)
    ApiSpec(
        "fft",
        ("cufft/cufft.h", "cufft/cufftXt.h", "cufft/cudalibxt.h"),
        keep=r"^(cufft|CUFFT|cudaXt|cudaLibXt|CUDA_XT|LIB_FORMAT|libFormat)\w*$",
    ),
    ApiSpec("sparse", ("cusparse/cusparse.h",), ("cusparse/cusparse.h",), keep=r"^(cusparse|CUSPARSE)\w*$"),
    ApiSpec("solver", ("cusolver/cusolver*.h",), keep=r"^(cusolver|CUSOLVER|csrqr|csrlu|csrchol|syevj|gesvdj)\w*$"),
    ApiSpec("dnn", ("cudnn/cudnn.h", "cudnn/cudnn_[a-z]*[a-z].h"), keep=r"^(cudnn|CUDNN)\w*$"),
    ApiSpec("rtc", ("nvrtc/nvrtc.h",), keep=r"^(nvrtc|NVRTC)\w*$"),
    # NVTX 3 (header-only; the nvidia-nvtx wheel): its core API, the part ROCm's roctx.h mirrors
    ApiSpec("nvtx", ("nvtx/nvtx3/nvToolsExt.h",), keep=r"^(nvtx|NVTX)\w*$"),
    # NCCL (the nvidia-nccl wheel): RCCL keeps its API under NCCL's names; its version macros too
    # (NCCL_VERSION_CODE, NCCL_VERSION(X,Y,Z) for the NCCL version RCCL implements)
    ApiSpec("nccl", ("nccl/nccl.h",), keep=r"^(nccl|NCCL_)\w*$"),
    ApiSpec(
        "cub",
        (
            "toolkit/cccl/cub/*.cuh",
            "toolkit/cccl/cub/block/*.cuh",
            "toolkit/cccl/cub/device/*.cuh",
            # the dispatch layer, which libraries call directly (cub::DispatchRadixSort): hipCUB has none of it
            "toolkit/cccl/cub/device/dispatch/*.cuh",
            "toolkit/cccl/cub/warp/*.cuh",
            "toolkit/cccl/cub/thread/*.cuh",
            "toolkit/cccl/cub/iterator/*.cuh",
            "toolkit/cccl/cub/grid/*.cuh",
        ),
        # CUB 2.x (CUDA 12) names that CCCL 3 removed (cub::Sum, cub::Max, ...) are still common in user code
        (
            "cccl/cub/*.cuh",
            "cccl/cub/block/*.cuh",
            "cccl/cub/device/*.cuh",
            "cccl/cub/device/dispatch/*.cuh",
            "cccl/cub/warp/*.cuh",
            "cccl/cub/thread/*.cuh",
            "cccl/cub/iterator/*.cuh",
            "cccl/cub/grid/*.cuh",
        ),
        # and CUB's macros users write (CubDebug, CUB_STDERR, CUB_RUNTIME_FUNCTION), not its namespace plumbing
        keep=r"^(cub::[A-Za-z]\w*|CUB_(?!DETAIL_|NS_|NAMESPACE_|COMP)\w+|CubDebug\w*)$",
        namespace=(("cub/", "cub"),),
    ),
)

# HIP-side headers: everything the AMD path declares. NVIDIA-backend files are read separately (pairs.py);
# rocPRIM/rocThrust internals are large and declare no translation targets.
HIP_EXCLUDE = re.compile(r"(nvidia|_nvcc|/backend/cub/|^rocprim/|^thrust/|^origami/|hip_prof_str\.h$)")
HIP_NAMESPACES = (("hipcub/", "hipcub"),)

# Headers of HIP's NVIDIA backend, where HIP names are defined in terms of CUDA ones.
NVIDIA_BACKEND = ("libamdhip64-dev/hip/nvidia_detail/*.h", "libhiprand-dev/hiprand/*_nvcc.h")


def spec(api: str) -> ApiSpec:
    return next(s for s in SPECS if s.api == api)
