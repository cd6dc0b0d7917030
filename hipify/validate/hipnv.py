"""HIP on NVIDIA with a current CUDA: patch a copy of HIP's ``nvidia_detail`` headers at validation time.

Debian ships HIP's NVIDIA backend (``hip/nvidia_detail``, ROCm 5.2/5.7) written against CUDA 11. CUDA 12/13
removed texture references and several ``cudaDeviceProp`` fields, and added parameters to the graph,
capture, memory-advice and context APIs, so ``nvcc -D__HIP_PLATFORM_NVIDIA__`` fails inside the inline
wrappers. We never touch the installed headers; we copy them and:

1. insert a compatibility block after the CUDA includes: argument-adding function-like macros for the
   changed CUDA calls (undefined again at the end of the header, so user code never sees them), and two
   helpers (device attribute query, device number -> ``cudaMemLocation``);
2. rewrite reads of removed ``cudaDeviceProp`` fields into attribute queries, and drop writes to them;
3. compile a probe with nvcc and put ``#if 0`` around every remaining top-level function that still
   fails (texture-reference and multi-device APIs, which CUDA no longer has), repeating until clean.

The result is specific to the CUDA used to probe it and is cached by (HIP headers, nvcc version).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

API_HEADER = "hip/nvidia_detail/nvidia_hip_runtime_api.h"

# Removed cudaDeviceProp fields -> the attribute that still reports them ("" = no longer exists: 0).
REMOVED_PROP_FIELDS = {
    "clockRate": "cudaDevAttrClockRate",
    "memoryClockRate": "cudaDevAttrMemoryClockRate",
    "computeMode": "cudaDevAttrComputeMode",
    "kernelExecTimeoutEnabled": "cudaDevAttrKernelExecTimeout",
    "cooperativeMultiDeviceLaunch": "",
}

COMPAT_BEGIN = """
/* ---- hipify-py validate: CUDA >= 12 compatibility for HIP's NVIDIA backend (begin) ---- */
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
static inline int __hipnv_attribute(enum cudaDeviceAttr attr, int device) {
    int value = 0;
    if (cudaDeviceGetAttribute(&value, attr, device) != cudaSuccess) value = 0;
    return value;
}
static inline struct cudaMemLocation __hipnv_location(int device) {
    struct cudaMemLocation loc;
    loc.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    loc.id = device;
    return loc;
}
#define cudaDevAttrCooperativeMultiDeviceLaunch cudaDevAttrCooperativeLaunch
#define cudaGraphAddDependencies(g, f, t, n) cudaGraphAddDependencies(g, f, t, NULL, n)
#define cudaGraphRemoveDependencies(g, f, t, n) cudaGraphRemoveDependencies(g, f, t, NULL, n)
#define cudaGraphGetEdges(g, f, t, n) cudaGraphGetEdges(g, f, t, NULL, n)
#define cudaGraphNodeGetDependencies(x, d, n) cudaGraphNodeGetDependencies(x, d, NULL, n)
#define cudaGraphNodeGetDependentNodes(x, d, n) cudaGraphNodeGetDependentNodes(x, d, NULL, n)
#define cudaStreamGetCaptureInfo_v2(s, c, i, g, d, n) cudaStreamGetCaptureInfo(s, c, i, g, d, NULL, n)
#define cudaStreamUpdateCaptureDependencies(s, d, n, f) cudaStreamUpdateCaptureDependencies(s, d, NULL, n, f)
#if CUDART_VERSION >= 13000
#undef cudaMemPrefetchAsync
#define cudaMemAdvise(p, n, a, d) cudaMemAdvise(p, n, a, __hipnv_location(d))
#define cudaMemPrefetchAsync(p, n, d, s) cudaMemPrefetchAsync(p, n, __hipnv_location(d), 0, s)
#undef cuCtxCreate
#define cuCtxCreate(c, f, d) cuCtxCreate_v4(c, NULL, f, d)
#endif
#define __HIPNV_COMPAT 1
#endif
/* ---- hipify-py validate: compatibility (end) ---- */
"""

COMPAT_END = """
/* ---- hipify-py validate: drop the compatibility macros again ---- */
#ifdef __HIPNV_COMPAT
#undef cudaDevAttrCooperativeMultiDeviceLaunch
#undef cudaGraphAddDependencies
#undef cudaGraphRemoveDependencies
#undef cudaGraphGetEdges
#undef cudaGraphNodeGetDependencies
#undef cudaGraphNodeGetDependentNodes
#undef cudaStreamGetCaptureInfo_v2
#undef cudaStreamUpdateCaptureDependencies
#if CUDART_VERSION >= 13000
#undef cudaMemAdvise
#undef cudaMemPrefetchAsync
#undef cuCtxCreate
#define cuCtxCreate cuCtxCreate_v4
#endif
#endif
"""

PROBE = """#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_complex.h>
#include <hip/hip_fp16.h>
int main() { return 0; }
"""

ERROR_LINE = re.compile(r"^(?P<file>[^\s(][^(]*)\((?P<line>\d+)\): error", re.MULTILINE)


@dataclass
class PatchReport:
    out_dir: Path
    edits: list[str] = field(default_factory=list)
    disabled: list[str] = field(default_factory=list)
    passes: int = 0
    ok: bool = False
    log: str = ""


def _insert_compat(text: str) -> tuple[str, list[str]]:
    notes: list[str] = []
    anchor = "#include <cuda_fp16.h>\n"
    pos = text.find(anchor)
    if pos < 0:  # older layouts: after the last top-of-file CUDA include
        pos = text.find("#include <cuda.h>\n")
        anchor = "#include <cuda.h>\n"
    if pos < 0:
        raise ValueError("cannot find the CUDA includes in nvidia_hip_runtime_api.h")
    pos += len(anchor)
    text = text[:pos] + COMPAT_BEGIN + text[pos:]
    notes.append("compatibility macros inserted after " + anchor.strip())
    guard_end = text.rfind("#endif")
    text = text[:guard_end] + COMPAT_END + text[guard_end:]
    return text, notes


def _rewrite_prop_fields(text: str) -> tuple[str, list[str]]:
    notes: list[str] = []
    for name, attr in REMOVED_PROP_FIELDS.items():
        # writes into a cudaDeviceProp (hipChooseDevice): the field no longer exists, drop the statement
        text, n_w = re.subn(rf"\n[ \t]*\w+\.{name}\s*=\s*[^;\n]*;[^\n]*", "", text)
        # reads from a cudaDeviceProp (hipGetDeviceProperties): ask the device attribute instead
        replacement = f"__hipnv_attribute({attr}, device)" if attr else "0"
        text, n_r = re.subn(rf"\bcdprop\.{name}\b", replacement, text)
        if n_w or n_r:
            notes.append(f"cudaDeviceProp.{name}: {n_r} read(s) -> {replacement}, {n_w} write(s) dropped")
    return text, notes


_DECL_START = re.compile(
    r"^(?:template\b|inline\b|static\b|__host__\b|__device__\b|__HIP_DEPRECATED|"
    r"HIP_PUBLIC_API\b|DEPRECATED\b|hipError_t\b|[A-Za-z_][\w:<>,\s\*&]*\()"
)


def _enclosing_function(lines: list[str], index: int) -> tuple[int, int] | None:
    """(first, last) 0-based line range of the top-level function containing ``lines[index]``."""
    start = index
    while start >= 0:
        line = lines[start]
        if line and not line[0].isspace() and _DECL_START.match(line) and not line.startswith("#"):
            break
        start -= 1
    if start < 0:
        return None
    while start > 0 and lines[start - 1].startswith("template"):
        start -= 1
    depth, opened = 0, False
    for end in range(start, len(lines)):
        code = lines[end].split("//", 1)[0]
        depth += code.count("{") - code.count("}")
        opened = opened or "{" in code
        if opened and depth <= 0:
            return (start, end) if start <= index <= end else None
    return None


def _function_name(lines: list[str], first: int, last: int) -> str:
    match = re.search(r"\b(hip\w+)\s*\(", " ".join(lines[first : last + 1]))
    return match.group(1) if match else f"line {first + 1}"


def patch_headers(
    src_include: str | Path,
    out_dir: str | Path,
    nvcc: str = "nvcc",
    extra_includes: tuple[str, ...] = (),
    max_passes: int = 8,
) -> PatchReport:
    """Copy ``src_include/hip`` (NVIDIA parts only) to ``out_dir/include`` and make it compile with ``nvcc``."""
    src = Path(src_include) / "hip"
    out = Path(out_dir)
    inc = out / "include"
    report = PatchReport(inc)
    if inc.exists():
        shutil.rmtree(inc)
    # amd_detail/hcc_detail are never used on NVIDIA; leave them out (the copy is ~0.6 MB).
    shutil.copytree(src, inc / "hip", symlinks=True, ignore=shutil.ignore_patterns("amd_detail", "hcc_detail"))
    for lib in ("hiprand",):  # hipRAND's device API is header-only on NVIDIA (over cuRAND's)
        if (Path(src_include) / lib).is_dir():
            shutil.copytree(Path(src_include) / lib, inc / lib, symlinks=True)
    api = inc / API_HEADER
    text = api.read_text()
    text, notes = _insert_compat(text)
    report.edits += notes
    text, notes = _rewrite_prop_fields(text)
    report.edits += notes
    api.write_text(text)

    probe = out / "probe.cu"
    probe.write_text(PROBE)
    for attempt in range(max_passes):
        cmd = [nvcc, "-D__HIP_PLATFORM_NVIDIA__", "-I", str(inc)]
        for extra in extra_includes:
            cmd += ["-I", extra]
        cmd += ["-c", str(probe), "-o", os.devnull]
        proc = subprocess.run(cmd, check=False, capture_output=True, text=True)
        report.passes = attempt + 1
        report.log = proc.stdout + proc.stderr
        if proc.returncode == 0:
            report.ok = True
            break
        errors: dict[str, set[int]] = {}
        for m in ERROR_LINE.finditer(report.log):
            errors.setdefault(m.group("file").strip(), set()).add(int(m.group("line")))
        changed = False
        for path, line_numbers in errors.items():
            p = Path(path)
            if not p.is_absolute():
                p = Path.cwd() / p
            if inc not in p.resolve().parents:
                continue  # an error outside our copy: nothing we may patch
            lines = p.read_text().split("\n")
            spans: list[tuple[int, int]] = []
            for ln in sorted(line_numbers):
                span = _enclosing_function(lines, ln - 1)
                if span and not any(a <= span[0] <= b for a, b in spans):
                    spans.append(span)
            for first, last in sorted(spans, reverse=True):
                report.disabled.append(_function_name(lines, first, last))
                lines.insert(last + 1, "#endif  /* hipify-py validate */")
                lines.insert(first, "#if 0  /* hipify-py validate: uses a CUDA API that this CUDA no longer has */")
                changed = True
            p.write_text("\n".join(lines))
        if not changed:
            break
    probe.unlink(missing_ok=True)
    report.disabled.sort()
    return report


def cache_key(src_include: str | Path, nvcc_version: str) -> str:
    digest = hashlib.sha256(nvcc_version.encode())
    root = Path(src_include) / "hip" / "nvidia_detail"
    for p in sorted(root.glob("*.h")):
        digest.update(p.name.encode())
        digest.update(p.read_bytes())
    return digest.hexdigest()[:16]
