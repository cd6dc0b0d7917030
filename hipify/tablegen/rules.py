"""Naming rules: the HIP (and ROC) names a CUDA name would have, per library, best guess first.

Rules only propose; generate.py keeps a candidate only if the HIP headers declare it.
"""

from __future__ import annotations

import re

from ..knowledge.versions import version_part_candidates

_VERSION_SUFFIX = re.compile(r"_v\d+$")
_CAMEL_SPLIT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def snake(camel: str) -> str:
    """'SgemmStridedBatched' -> 'sgemm_strided_batched'."""
    return _CAMEL_SPLIT.sub("_", camel).lower()


def _swap(name: str, pairs: tuple[tuple[str, str], ...]) -> list[str]:
    # a whole-name swap (cuMemAlloc -> hipMalloc) is fine; a bare short prefix alone is not a name
    return [
        new + name[len(old) :] for old, new in pairs if name.startswith(old) and (len(name) > len(old) or len(old) > 3)
    ]


def _with_unversioned(names: list[str]) -> list[str]:
    out: list[str] = []
    for n in names:
        out.append(n)
        stripped = _VERSION_SUFFIX.sub("", n)
        if stripped != n:
            out.append(stripped)
    return out


def _dedupe(names: list[str]) -> list[str]:
    return list(dict.fromkeys(names))


def _roc_snake(name: str, prefix: str, roc: str, kind: str) -> list[str]:
    """cublasSgemm -> rocblas_sgemm; cusparseHandle_t -> rocsparse_handle."""
    if not name.startswith(prefix) or not name[len(prefix) :][:1].isupper():
        return []
    rest = _VERSION_SUFFIX.sub("", name[len(prefix) :])
    rest = rest.removesuffix("_t")
    return [f"{roc}_{snake(rest)}"]


def hip_candidates(api: str, name: str, kind: str) -> list[str]:
    out: list[str]
    if api == "runtime":
        out = _swap(name, (("cuda", "hip"), ("CUDART_", "HIP_"), ("CUDA_", "HIP_"), ("make_", "make_")))
        out += [n + "_t" for n in out if kind in ("type", "enum")]
        out.append(name)
    elif api == "driver":
        base = _swap(name, (("cu", "hip"), ("CU_", "HIP_"), ("CUDA_", "HIP_"), ("CU", "hip")))
        if name.startswith("cu") and name[2:3].isupper():
            base += ["hipDrv" + name[2:], "hipModule" + name[2:]]
        if kind in ("type", "enum"):
            base += [n + "_t" for n in base]
        # HIP has one allocator family for both APIs, and device-wide forms of context-scoped calls
        base += _swap(
            name,
            (("cuMemAlloc", "hipMalloc"), ("cuMemFree", "hipFree"), ("cuMemHost", "hipHost"), ("cuCtx", "hipDevice")),
        )
        out = _with_unversioned(base)
    elif api == "device":
        out = [name]
        # HIP spells the constants of its math header HIP_ (HIP_PI) and those of its fp16/bf16 headers HIPRT_
        out += _swap(name, (("__nv_", "__hip_"), ("__NV_", "__HIP_"), ("CUDART_", "HIP_"), ("CUDART_", "HIPRT_")))
        if "nv_bfloat" in name:
            out.append(name.replace("nv_bfloat", "hip_bfloat"))
    elif api == "complex":
        out = _swap(name, (("make_cu", "make_hip"), ("cu", "hip")))
    elif api == "blas":
        out = _with_unversioned(_swap(name, (("cublas", "hipblas"), ("CUBLAS_", "HIPBLAS_"))))
        out += [n.replace("_v2_64", "_64") for n in out if "_v2_64" in n]  # ILP64 twins: cublasSscal_v2_64
        out += version_part_candidates(name, "CUBLAS", "hipblas")
    elif api == "blaslt":
        out = _swap(name, (("cublasLt", "hipblasLt"), ("CUBLASLT_", "HIPBLASLT_")))
    elif api == "rand":
        out = _swap(name, (("curand", "hiprand"), ("CURAND", "HIPRAND"))) + ([name] if name.startswith("skip") else [])
    elif api == "fft":
        out = _swap(name, (("cufft", "hipfft"), ("CUFFT_", "HIPFFT_"), ("cuda", "hip"), ("CUDA_", "HIP_")))
        out += version_part_candidates(name, "CUFFT", "hipfft")
    elif api == "sparse":
        out = _with_unversioned(_swap(name, (("cusparse", "hipsparse"), ("CUSPARSE_", "HIPSPARSE_"))))
        out += version_part_candidates(name, "CUSPARSE", "hipsparse")
    elif api == "solver":
        out = _swap(
            name,
            (
                ("cusolverDn", "hipsolverDn"),
                ("cusolverSp", "hipsolverSp"),
                ("cusolverRf", "hipsolverRf"),
                ("cusolver", "hipsolver"),
                ("CUSOLVER", "HIPSOLVER"),  # CUSOLVER_STATUS_*, CUSOLVERDN_GETRF
            ),
        )
        out += _swap(name, (("cusolverDn", "hipsolver"),))
        out += version_part_candidates(name, "CUSOLVER", "hipsolver")
        if not name.startswith(("cusolver", "CUSOLVER")):  # syevjInfo_t -> hipsolverSyevjInfo_t
            out.append("hipsolver" + name[:1].upper() + name[1:])
    elif api == "dnn":
        out = []  # cuDNN has no HIP-named equivalent; MIOpen is the ROC target
    elif api == "rtc":
        out = _swap(name, (("nvrtc", "hiprtc"), ("NVRTC_", "HIPRTC_")))
    elif api == "cub":
        out = _swap(name, (("cub::", "hipcub::"), ("CUB_", "HIPCUB_"), ("CubDebug", "HipcubDebug")))
    elif api == "nvtx":  # ROCm's profiler annotations (roctx.h) name NVTX's calls with roctx
        out = _swap(name, (("nvtx", "roctx"), ("NVTX_", "ROCTX_")))
    elif api == "nccl":  # RCCL declares NCCL's API under NCCL's own names
        out = [name]
    else:
        out = []
    return _dedupe(out)


def roc_candidates(api: str, name: str, kind: str) -> list[str]:
    if api == "blas":
        return _roc_snake(name.replace("_v2_64", "_64"), "cublas", "rocblas", kind)
    if api == "rand":
        return _dedupe(
            _swap(name, (("curand_", "rocrand_"), ("CURAND_", "ROCRAND_")))
            + _roc_snake(name, "curand", "rocrand", kind)
        )
    if api == "sparse":
        return _roc_snake(name, "cusparse", "rocsparse", kind)
    if api == "solver":
        return _roc_snake(name, "cusolverDn", "rocsolver", kind)
    if api == "dnn":  # CUDNN_MAJOR -> MIOPEN_VERSION_MAJOR too
        return _dedupe(_swap(name, (("cudnn", "miopen"), ("CUDNN_", "MIOPEN_"), ("CUDNN_", "MIOPEN_VERSION_"))))
    return []


# Prefixes removed before comparing enum constants case- and underscore-insensitively
# (CU_MEMORYTYPE_HOST ~ hipMemoryTypeHost, CUDNN_STATUS_SUCCESS ~ miopenStatusSuccess).
_LIB_PREFIX = re.compile(
    r"^(cudnn|cusparse|cublaslt|cublas|curand|cufft|cusolverdn|cusolver|nvrtc|cudart|cuda|cu"
    r"|miopen|hipsparse|rocsparse|hipblaslt|hipblas|rocblas|hiprand|rocrand|hipfft|hipsolver|rocsolver|hiprtc|hip)"
)


def normalized(name: str) -> str:
    return _LIB_PREFIX.sub("", name.replace("_", "").lower())


def normalized_type(name: str) -> str:
    """Type names compared without prefix, case, underscores or a _t/_enum suffix."""
    return normalized(re.sub(r"(_t|_enum)$", "", name))
