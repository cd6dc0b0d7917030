"""A warp size of 32 written as a constant (``#define WARP_SIZE 32``, ``constexpr int kWarpSize = 32;``).

CUDA's warps have 32 threads; AMD's wavefronts have 64 on CDNA GPUs (gfx9: MI100 to MI300) and 32 on
RDNA. Where the constant drives lanes (shuffle offsets and widths, ``threadIdx.x % WARP_SIZE``, warp
indices, lane masks, CUB's warp primitives and cooperative-groups tiles), the translation computes wrong
results on 64-wide hardware without a compile error, so the definition is reported with the fix
(HPY121). Where it sizes hipCUB/rocPRIM block primitives (``BlockLoad<T, WARP_SIZE, ...>``) and
otherwise only scales with the block (the launch's block size, ``blockIdx.x * WARP_SIZE``,
``__launch_bounds__``), rocPRIM rejects a block that is not a multiple of the wavefront at compile time
("BlockSize must be a multiple of hardware warpsize"); 64 is a multiple of every AMD wavefront and the
primitives compute the same for any such block size, so the value becomes 64 (HPY020).

Only the file that defines the constant is looked at: its uses there decide. A constant defined more
than once (``#if`` branches for each platform) is the project's own choice and is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ...lexing.facts import Region
from ...model import Diagnostic, Edit, Origin, Severity
from ..context import Context
from ..registry import Finding, register

WAVEFRONT_MULTIPLE = "64"  # a multiple of the wavefront of every AMD GPU (32 or 64 lanes)
# ROCm 7's warpSize is an object read at run time (amd_warp_functions.h), 6.x's a constexpr int
RUNTIME_WARP_SIZE_SINCE = (7, 0)
RUNTIME_WARP_SIZE = (
    "; on ROCm 7 read at run time, so not where a constant is needed: an array size, a template argument"
)

# Names code gives its warp-size constant (matched whole, any case): WARP_SIZE, kWarpSize, WARPSIZE,
# warp_sz, THREADS_PER_WARP, kWarpThreads, LANES_PER_WARP. HIP's own warpSize is not a constant of the code's.
_NAME = re.compile(
    r"(?i)(?:k_?)?(?:cuda_?)?(?:warp_?size|warp_?sz|warp_?threads|threads_?per_?warp|lanes_?per_?warp|warp_?width)\Z"
)
_THIRTY_TWO = re.compile(r"\(?\s*32[uU]?[lL]{0,2}\s*\)?\Z")
_CONSTANT = re.compile(
    r"\b(?:static\s+)?(?:constexpr|const)\s+(?:static\s+)?"
    r"(?:unsigned\s+int|unsigned|signed\s+int|int|long|size_t|std::size_t|uint32_t|int32_t|auto)\s+"
    r"([A-Za-z_]\w*)\s*(?:=\s*|\{\s*)(32[uU]?[lL]{0,2})\s*\}?\s*;"
)
_BLOCK_PRIMITIVE = re.compile(
    r"Block(?:AdjacentDifference|Discontinuity|Exchange|Histogram|Load|MergeSort|RadixRank|RadixSort|Reduce|"
    r"RunLengthDecode|Scan|Shuffle|Store)\Z"
)
_WORD_BEFORE = re.compile(r"([A-Za-z_]\w*)\s*\Z")
_WARP = re.compile("warp", re.IGNORECASE)  # searched without a lowered copy of the file


@dataclass(frozen=True)
class WarpSizeConstant:
    name: str
    start: int  # of the definition (directive or declaration)
    value: tuple[int, int]  # span of the literal 32
    region: Region


def constants(ctx: Context) -> list[WarpSizeConstant]:
    """The file's warp-size constants defined once, as 32."""
    found: dict[str, list[WarpSizeConstant | None]] = {}
    text = ctx.text
    for d in ctx.facts.directives:
        if d.keyword != "define" or not d.argument:
            continue
        name, _, value = d.argument.partition(" ")
        if not _NAME.match(name):
            continue
        entry: WarpSizeConstant | None = None
        if _THIRTY_TWO.match(value.strip()):
            m = re.compile(rf"\b{re.escape(name)}\s*\(?\s*(32)").search(text, d.start, d.end)
            if m is not None:
                entry = WarpSizeConstant(name, d.start, (m.start(1), m.start(1) + 2), d.region)
        found.setdefault(name, []).append(entry)
    masked = ctx.masked
    for m in _CONSTANT.finditer(masked) if _assigns_32(masked) else ():
        name = m.group(1)
        if _NAME.match(name):
            span = (m.start(2), m.start(2) + 2)
            found.setdefault(name, []).append(WarpSizeConstant(name, m.start(), span, Region.CODE))
    return [defs[0] for defs in found.values() if len(defs) == 1 and defs[0] is not None]


def _assigns_32(masked: str) -> bool:
    """Is some 32 given to a name holding "warp" (``kWarpSize = 32``, ``WARP_SIZE{32}``)? Every _CONSTANT match
    whose name _NAME takes is one, and '32' is found at C speed, where _CONSTANT (no literal to start from) is
    tried at every word: 0.30 s over the generated tree's 750 files, none of which has such a 32."""
    at = masked.find("32")
    while at >= 0:
        j = at
        while j > 0 and masked[j - 1].isspace():  # str.isspace is re's \s
            j -= 1
        if j > 0 and masked[j - 1] in "={":
            j -= 1
            while j > 0 and masked[j - 1].isspace():
                j -= 1
            name_end = j
            while j > 0 and (masked[j - 1].isalnum() or masked[j - 1] == "_"):  # re's \w
                j -= 1
            if "warp" in masked[j:name_end].lower():
                return True
        at = masked.find("32", at + 1)
    return False


@dataclass(frozen=True)
class Uses:
    block: tuple[int, ...]  # offsets of uses sizing a block primitive
    lanes: tuple[int, ...]  # offsets of uses driving lanes


def uses_of(ctx: Context, constant: WarpSizeConstant) -> Uses:
    """The uses of ``constant`` that size a block primitive, and those that drive lanes. Others (a launch's block
    size, ``blockIdx.x * WARP_SIZE``, a grid computed from it) scale with the value and say neither."""
    masked = ctx.masked
    block: list[int] = []
    lanes: list[int] = []
    name = re.escape(constant.name)  # a name: \bNAME is NAME(?<!\wNAME), which is searched for at C speed
    for m in re.finditer(rf"{name}(?<!\w{name})\b", masked):
        at = m.start()
        if constant.start <= at < constant.value[1]:
            continue  # the definition itself
        openers = _enclosing(masked, at)
        if any(_LANE_FUNCTION.search(word) for _, word in openers) or _drives_lanes(masked, at, m.end()):
            lanes.append(at)
        elif openers and openers[0][0] == "<" and _BLOCK_PRIMITIVE.match(openers[0][1]):
            block.append(at)
    return Uses(tuple(block), tuple(lanes))


# Calls and templates whose arguments are lanes or logical warps: warp functions, cooperative-groups tiles,
# CUB's warp-level primitives (their LOGICAL_WARP_THREADS).
_LANE_FUNCTION = re.compile(
    r"(?:^__(?:shfl|ballot|any|all|match|reduce|activemask)|shfl|^tiled_partition\Z|^thread_block_tile\Z|"
    r"^Warp(?:Reduce|Scan|Load|Store|Exchange|MergeSort)\Z)"
)
_THREAD_WORD = re.compile(r"(?i)thread|tid|lane")


def _drives_lanes(masked: str, at: int, end: int) -> bool:
    """``x % W``, ``tid / W`` (a warp index), ``W / 2`` or ``W >> 1`` (shuffle offsets), ``& (W - 1)``."""
    before = masked[max(0, at - 60) : at].rstrip()
    after = masked[end : end + 8].lstrip()
    if before.endswith("%") or re.match(r"(?:/\s*2|>>\s*1)\b", after):
        return True
    if re.search(r"&\s*\(?\s*\Z", before) and re.match(r"-\s*1\b", after):
        return True
    if before.endswith("/") and not before.endswith("//"):
        operand = re.search(r"([\w.\->\[\]]+)\s*/\Z", before)
        return operand is not None and _THREAD_WORD.search(operand.group(1)) is not None
    return False


def _enclosing(masked: str, at: int) -> list[tuple[str, str]]:
    """The unmatched ``(`` and ``<`` around ``at`` in its statement, innermost first, each with the word before
    it (``("<", "BlockReduce")``, ``("(", "__shfl_down_sync")``)."""
    out: list[tuple[str, str]] = []
    depth = 0
    i = at - 1
    floor = max(0, at - 400)
    while i >= floor:
        c = masked[i]
        if c in ">)]":
            if not (c == ">" and i > 0 and masked[i - 1] == "-"):
                depth += 1
        elif c in "(<[":
            if depth == 0:
                before = _WORD_BEFORE.search(masked, max(0, i - 40), i)
                out.append((c, before.group(1) if before is not None else ""))
            else:
                depth -= 1
        elif c in ";{}#":
            break
        i -= 1
    return out


@register("warp_size")
def warp_size(ctx: Context) -> Iterator[Finding]:
    text = ctx.text
    # Every name _NAME takes holds "warp" (any case): a file without one has no constant, and the scan of
    # _CONSTANT (no literal prefix, tried at each word) is what costs. Masking never makes letters, so the
    # text holds every name the masked text does.
    if "32" not in text or _WARP.search(text) is None:
        return
    for constant in constants(ctx):
        if not ctx.allowed(constant.start, constant.region):
            continue
        uses = uses_of(ctx, constant)
        if uses.block and not uses.lanes:
            start, end = constant.value
            yield Edit(start, end, WAVEFRONT_MULTIPLE, "HPY020", Origin.TEXT, subject=constant.name)
        elif uses.lanes:
            line = ctx.text.count("\n", 0, uses.lanes[0]) + 1
            yield Diagnostic(
                "HPY121",
                f"{constant.name} is 32, but an AMD wavefront has 64 lanes on CDNA GPUs (gfx9) and 32 on RDNA: "
                f"the lanes it drives (as at line {line}) split each 64-wide wavefront in two, and shuffles that "
                "cross lane 32, ballots, lane masks and per-warp counts then compute wrong results there. Use "
                "warpSize in device code (HIP's is the wavefront size of the GPU compiled for"
                + (RUNTIME_WARP_SIZE if ctx.options.rocm_version >= RUNTIME_WARP_SIZE_SINCE else "")
                + "), or build only for wave32 GPUs",
                offset=constant.start,
                severity=Severity.WARNING,
                subject=constant.name,
            )
