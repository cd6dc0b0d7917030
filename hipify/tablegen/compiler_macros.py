"""Rows for the macros compilers predefine (``__CUDACC__``, ``__CUDA_ARCH__``, ...).

No header declares them, so the header scan cannot pair them; ``compiler_macros.toml`` does,
each with the documentation it rests on. The HIP side is checked against the compiler
itself: when a ROCm hipcc is at hand, every HIP target must be among the macros it predefines
(host pass, or device pass for device-only ones); otherwise the generation says it was not
checked.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from ..knowledge.table import Row, Transform

DEFAULT_MACROS = Path(__file__).with_name("compiler_macros.toml")
API = "compiler"
_KEYS = {"cuda", "hip", "transform", "defined_by", "reason"}


class CompilerMacroError(ValueError):
    pass


@dataclass(frozen=True)
class CompilerMacro:
    cuda: str
    hip: str
    transform: str
    reason: str
    defined_by: str = "hipcc"  # or "hiprtc": hipcc cannot confirm the HIP macro


def load_macros(path: Path = DEFAULT_MACROS) -> list[CompilerMacro]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out: list[CompilerMacro] = []
    seen: set[str] = set()
    for item in data.get("macro", []):
        unknown = set(item) - _KEYS
        cuda, reason = str(item.get("cuda", "")), str(item.get("reason", "")).strip()
        if unknown or not cuda or not reason or "hip" not in item:
            raise CompilerMacroError(f"{path}: {cuda or item}: needs cuda, hip and reason (unknown: {sorted(unknown)})")
        if cuda in seen:
            raise CompilerMacroError(f"{path}: {cuda} twice")
        seen.add(cuda)
        defined_by = str(item.get("defined_by", "hipcc"))
        if defined_by not in ("hipcc", "hiprtc"):
            raise CompilerMacroError(f"{path}: {cuda}: defined_by must be hipcc or hiprtc, not {defined_by!r}")
        out.append(CompilerMacro(cuda, str(item["hip"]), str(item.get("transform", "")), reason, defined_by))
    return out


def compiler_rows(macros: list[CompilerMacro], predefined: frozenset[str] | None) -> list[Row]:
    """One macro row per entry; ``predefined``: what hipcc defines (None = not checked)."""
    rows = []
    for m in macros:
        if m.hip and m.defined_by == "hipcc" and predefined is not None and m.hip not in predefined:
            raise CompilerMacroError(f"{m.cuda}: hipcc does not predefine {m.hip}")
        rows.append(
            Row(
                cuda=m.cuda,
                hip=m.hip,
                kind="macro",
                api=API,
                hip_status="supported" if m.hip else "unsupported",
                transform=Transform(kind=m.transform) if m.transform else None,
                source="compiler",
                note=m.reason,
            )
        )
    return rows


def hipcc_predefined() -> frozenset[str] | None:
    """Macros a ROCm hipcc predefines for HIP source, host and device pass; None without one."""
    from ..validate.toolchain import detect

    toolchains = [t for t in detect() if t.rocm_version >= (6, 0)]
    if not toolchains:
        return None
    tc = toolchains[0]
    names: set[str] = set()
    for pass_flag in ("--cuda-host-only", "--cuda-device-only"):
        cmd = [*tc.hipcc, "-x", "hip", "--offload-arch=gfx90a", pass_flag, "-dM", "-E", "/dev/null"]
        try:
            proc = subprocess.run(
                cmd, capture_output=True, text=True, timeout=300, check=False, env={**os.environ, **tc.env}
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        if proc.returncode != 0:
            return None
        names.update(line.split()[1] for line in proc.stdout.splitlines() if line.startswith("#define "))
    return frozenset(names)
