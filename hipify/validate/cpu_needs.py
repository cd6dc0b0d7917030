"""What a translated program needs that HIP-CPU cannot give: its verdict is then "not run: needs X", with X.

Two sources, both general: what the translated text uses (a HIP library's headers, textures and surfaces,
inline assembly, cooperative launches, code objects loaded at run time) before anything is compiled; and, after
a build that stopped, the HIP names and headers the compiler found missing that HIP declares (the mapping
table's HIP names) but HIP-CPU does not. Any other build error is the translation's: a failure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

from ..lexing.conditionals import skipped_without
from ..lexing.lexer import lex
from ..lexing.text_facts import directives_of

# Library include folders / header stems of the HIP and ROC libraries: HIP-CPU has none of them.
_LIBRARY_HEADERS = {
    "hipcub": "hipCUB",
    "rocprim": "rocPRIM",
    "thrust": "rocThrust",
    "hipblas": "hipBLAS",
    "hipblaslt": "hipBLASLt",
    "rocblas": "rocBLAS",
    "hipfft": "hipFFT",
    "rocfft": "rocFFT",
    "hiprand": "hipRAND",
    "rocrand": "rocRAND",
    "hipsparse": "hipSPARSE",
    "rocsparse": "rocSPARSE",
    "hipsolver": "hipSOLVER",
    "rocsolver": "rocSOLVER",
    "rccl": "RCCL",
    "miopen": "MIOpen",
    "hipsparselt": "hipSPARSELt",
    "rocwmma": "rocWMMA",
    "hiptensor": "hipTensor",
    "roctracer": "rocTracer",
    "roctx": "rocTX",
}
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.MULTILINE)
# (pattern over the code with comments and strings blanked, what it needs)
_USES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(?:hipTextureObject_t|hipCreateTextureObject|texture\s*<|tex[123]D\w*|hipBindTexture\w*)\b"),
     "textures (HIP-CPU has no texture units)"),
    (re.compile(r"\b(?:hipSurfaceObject_t|hipCreateSurfaceObject|surf[123]D\w*)\b"), "surfaces"),
    (re.compile(r"\b(?:asm|__asm__|__asm)\s*(?:volatile\s*|__volatile__\s*)?\("), "inline assembly"),
    (re.compile(r"\bhipLaunchCooperativeKernel\w*\b|\bthis_grid\s*\("), "a cooperative launch (grid-wide sync)"),
    (re.compile(r"\bhipModule(?:Load\w*|LaunchKernel\w*|GetFunction)\b"), "code objects loaded at run time"),
    (re.compile(r"\bhiprtc\w+\b"), "run-time compilation (hipRTC)"),
    (re.compile(r"\bhipGraph\w*\b|\bhipStreamBeginCapture\b"), "graphs (HIP-CPU has no hipGraph)"),
    (re.compile(r"<<<"), "a launch in triple chevrons (HIP-CPU launches through hipLaunchKernelGGL)"),
)  # fmt: skip


def needs_before_build(texts: Mapping[str, str], cpu_include: Path) -> list[str]:
    """What the translated ``texts`` (path -> text) use that HIP-CPU lacks, once each, in a stable order."""
    found: dict[str, None] = {}
    for text in texts.values():
        for header in _INCLUDE.findall(text):
            need = _header_need(header, cpu_include, texts)
            if need:
                found[need] = None
        masked = _compiled(text)
        for pattern, need in _USES:
            if pattern.search(masked):
                found[need] = None
    return list(found)


def _compiled(text: str) -> str:
    """``text`` with comments, literals and the code every build skips (``#if 0``: a condition the translation
    decided for another build) blanked: inline assembly the compiler never reads is no need."""
    lexed = lex(text)
    masked = lexed.masked
    skipped = skipped_without(directives_of(text, lexed), frozenset())
    if not skipped:
        return masked
    parts = []
    at = 0
    for start, end in skipped:
        end = len(masked) if end < 0 else end
        parts += [masked[at:start], re.sub(r"[^\n]", " ", masked[start:end])]
        at = end
    return "".join(parts) + masked[at:]


def _header_need(header: str, cpu_include: Path, texts: Mapping[str, str]) -> str:
    if any(path.endswith("/" + header) or path == header for path in texts):
        return ""  # the program's own header
    first = header.split("/", 1)[0].lower()
    stem = first.removesuffix(".h").removesuffix(".hpp")
    if stem in _LIBRARY_HEADERS:
        return f"{_LIBRARY_HEADERS[stem]} (no CPU form in HIP-CPU)"
    if first == "hip" and not (cpu_include / header).is_file():
        return f"<{header}> (HIP-CPU lacks it)"
    return ""


@cache
def hip_names() -> frozenset[str]:
    """Every HIP name the mapping table translates to: what HIP declares."""
    from ..knowledge.table import load_table

    return frozenset(row.hip for row in load_table() if row.hip)


_UNDECLARED = re.compile(
    "[\u2018'`]([A-Za-z_]\\w*)[\u2019'`] (?:was not declared|is not a member|has not been declared|does not name a type)"
    r"|use of undeclared identifier '([A-Za-z_]\w*)'|unknown type name '([A-Za-z_]\w*)'"
)
# A member of a HIP struct that HIP-CPU's struct of that name does not have (g++'s wording, then clang's).
_NO_MEMBER = re.compile(
    "[\u2018'`](?:struct |class )?([A-Za-z_]\\w*)[\u2019'`] has no member named [\u2018'`]([A-Za-z_]\\w*)[\u2019'`]"
    r"|no member named '([A-Za-z_]\w*)' in '(?:struct )?([A-Za-z_]\w*)'"
)
_NO_HEADER = re.compile(r"fatal error: ([\w/.+-]+): No such file|fatal error: '([\w/.+-]+)' file not found")


# Headers of CUDA and its libraries: one left in a translation is the translation's failure, never a lack.
_CUDA_HEADER = re.compile(r"^(?:cuda|cu[a-z]|nv|cub/|thrust/|cooperative_groups|crt/|sm_\d|device_|math_constants)")


def needs_from_build_log(log: str, known: Iterable[str] = (), compat_header: str = "") -> list[str]:
    """What a failed CPU build lacked: HIP names HIP declares (or ``known`` names) and HIP-CPU does not, headers
    HIP-CPU or this machine does not have (a CUDA header is the translation's), the compatibility header's HIP
    code (``compat_header``: its text, whose CPU branch is HIP-CPU's); [] when the errors are of another kind (the
    translation's failure)."""
    names = hip_names() | frozenset(known)
    found: dict[str, None] = {}
    for match in _NO_HEADER.finditer(log):
        header = match.group(1) or match.group(2)
        if header.startswith("hip/") or header.split("/", 1)[0].lower().removesuffix(".h") in _LIBRARY_HEADERS:
            found[f"<{header}> (HIP-CPU lacks it)"] = None
        elif not _CUDA_HEADER.match(header):
            found[f"<{header}> (not installed here)"] = None
    entries = _compat_entries_failing(log, compat_header)
    if entries:
        found[f"the compatibility header's HIP code ({', '.join(entries)}: written for hipcc)"] = None
    for match in _NO_MEMBER.finditer(log):
        struct, member = (match.group(1), match.group(2)) if match.group(1) else (match.group(4), match.group(3))
        if struct in names:
            found[f"{struct}::{member} (HIP declares it, HIP-CPU's {struct} does not)"] = None
    for match in _UNDECLARED.finditer(log):
        name = next(g for g in match.groups() if g)
        if name in names:
            found[f"{name} (HIP declares it, HIP-CPU does not)"] = None
    return list(found)


_COMPAT_ERROR = re.compile(r"hipify_compat\.h:(\d+):\d+: error")
_ENTRY_COMMENT = re.compile(r"^// ([A-Za-z_]\w*): ", re.MULTILINE)


def _compat_entries_failing(log: str, header: str) -> list[str]:
    """The compatibility-header entries outside its CPU branch that the build's errors are in."""
    if not header:
        return []
    lines = header.splitlines()
    branch = next((i + 1 for i, line in enumerate(lines) if "hipify-py: CPU branch" in line), len(lines) + 1)
    found: dict[str, None] = {}
    for match in _COMPAT_ERROR.finditer(log):
        number = int(match.group(1))
        if number >= branch:
            continue  # the CPU branch is HIP-CPU's own: an error there is a failure
        above = "\n".join(lines[: number - 1])
        names = _ENTRY_COMMENT.findall(above)
        found[names[-1] if names else "its runtime include"] = None
    return list(found)
