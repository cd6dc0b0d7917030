"""CUB's warp-transposing block loads and stores, for blocks that are not whole AMD wavefronts (HPY029).

``cub::BlockLoad<T, 32, N, cub::BLOCK_LOAD_WARP_TRANSPOSE>`` (and ``BlockStore`` with
``BLOCK_STORE_WARP_TRANSPOSE``, and their ``_TIMESLICED`` forms) needs a block of whole warps: 32 threads in CUDA.
hipCUB's rocPRIM backend needs whole wavefronts, 64 threads on most AMD GPUs, and stops the compile with a static
assertion otherwise. The block-wide transpose (``BLOCK_LOAD_TRANSPOSE``, ``BLOCK_STORE_TRANSPOSE``) gives the same
blocked arrangement of the same items for any block size, through shared memory. So the algorithm argument is
chosen where the template names it, by the block's thread count (its ``BLOCK_DIM_X``, times ``BLOCK_DIM_Y`` and
``BLOCK_DIM_Z`` where given):
``(32 % 64 == 0 ? hipcub::BLOCK_LOAD_WARP_TRANSPOSE : hipcub::BLOCK_LOAD_TRANSPOSE)``: a block of whole 64-wide
wavefronts (whole 32-wide ones too) keeps the warp transpose. An algorithm passed through a template parameter or
a variable is not at hand in the text and is left alone.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...lexing.text_facts import prev_token
from ...model import Diagnostic, Edit, Origin, Severity
from ..context import Context
from ..registry import Finding, register

# The widest AMD wavefront: a block of whole 64-wide wavefronts is one of whole 32-wide ones as well.
WAVEFRONT = 64
# warp-transposing algorithm -> (its template, the block-wide algorithm giving the same arrangement)
_BLOCK_WIDE = {
    "BLOCK_LOAD_WARP_TRANSPOSE": ("BlockLoad", "BLOCK_LOAD_TRANSPOSE"),
    "BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED": ("BlockLoad", "BLOCK_LOAD_TRANSPOSE"),
    "BLOCK_STORE_WARP_TRANSPOSE": ("BlockStore", "BLOCK_STORE_TRANSPOSE"),
    "BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED": ("BlockStore", "BLOCK_STORE_TRANSPOSE"),
}
_ALGORITHM_ARGUMENT = 3  # BlockLoad<T, BLOCK_DIM_X, ITEMS_PER_THREAD, ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z>
_DIMENSIONS = (1, 4, 5)
_OPEN = "([{"
_CLOSE = ")]}"


@register("block_transpose")
def block_transpose(ctx: Context) -> Iterator[Finding]:
    occurrences = ctx.identifiers_by_name
    names = [n for n in _BLOCK_WIDE if n in occurrences]
    if not names:
        return
    code = ctx.masked
    for name in names:
        template, block_wide = _BLOCK_WIDE[name]
        for ident in occurrences[name]:
            if ident.qualifier not in ("cub", "hipcub", "") or not ctx.allowed(ident.start):
                continue
            start = _qualified_start(code, ident.start)
            if prev_token(code, start) == "?":
                continue  # chosen already (a translation's output)
            arguments = _template_arguments(code, start, template)
            if arguments is None or len(arguments) <= _ALGORITHM_ARGUMENT:
                continue
            span = arguments[_ALGORITHM_ARGUMENT]
            if code[span[0] : span[1]].strip() != code[start : ident.end].strip():
                continue  # the algorithm is part of an expression, not the argument itself
            factors = [_factor(code[s:e].strip()) for i, (s, e) in enumerate(arguments) if i in _DIMENSIONS]
            threads = factors[0] if len(factors) == 1 else f"({' * '.join(factors)})"
            qualifier = "hipcub::" if ident.qualifier or "::" in code[start : ident.start] else ""
            yield Edit(start, start, f"({threads} % {WAVEFRONT} == 0 ? ", "HPY029", Origin.TEXT, subject=name)
            yield Edit(ident.end, ident.end, f" : {qualifier}{block_wide})", "HPY029", Origin.TEXT, subject=name)
            yield Diagnostic(
                "HPY029",
                f"hipCUB's {name} needs a block of whole {WAVEFRONT}-wide wavefronts: {block_wide}, which gives the "
                "same blocked arrangement, where the block is not one",
                start,
                severity=Severity.INFO,
                subject=name,
            )


def _factor(text: str) -> str:
    return text if text.isdigit() else f"({text})"


def _qualified_start(code: str, at: int) -> int:
    """Where ``cub::NAME`` (``::cub::NAME``) starts, for the identifier ``NAME`` at ``at``."""
    i = at
    while True:
        j = i
        while j > 0 and code[j - 1] in " \t\r\n":
            j -= 1
        if code[j - 2 : j] != "::":
            return i
        k = j - 2
        while k > 0 and code[k - 1] in " \t\r\n":
            k -= 1
        m = k
        while m > 0 and (code[m - 1].isalnum() or code[m - 1] == "_"):
            m -= 1
        if m == k:
            return j - 2  # ``::NAME``: the global namespace
        i = m


def _template_arguments(code: str, at: int, template: str) -> list[tuple[int, int]] | None:
    """The argument spans of the ``template<...>`` whose argument list holds offset ``at``, or None. Angle brackets
    count outside parentheses only (``N * ((D > 0) ? 2 : 1)``)."""
    depth = 0
    i = at - 1
    while i >= 0:
        c = code[i]
        if c in _CLOSE or (c == ">" and depth == 0 and _closes_template(code, i)):
            depth += 1
        elif c in _OPEN or (c == "<" and depth > 0 and _is_template_open(code, i)):
            depth -= 1
            if depth < 0:
                return None
        elif c == "<" and depth == 0:
            name_end = i
            while name_end > 0 and code[name_end - 1] in " \t\r\n":
                name_end -= 1
            if not code[:name_end].endswith(template):
                return None
            return _split_arguments(code, i + 1)
        elif c in ";{}":
            return None
        i -= 1
    return None


def _closes_template(code: str, at: int) -> bool:
    return code[at - 1 : at] != "-" and code[at + 1 : at + 2] != "="


def _is_template_open(code: str, at: int) -> bool:
    return code[at + 1 : at + 2] not in ("<", "=")


def _split_arguments(code: str, start: int) -> list[tuple[int, int]] | None:
    """The top-level argument spans from ``start`` to the ``>`` closing the list."""
    spans: list[tuple[int, int]] = []
    paren = angle = 0
    begin = start
    for i in range(start, min(len(code), start + 2000)):
        c = code[i]
        if c in _OPEN:
            paren += 1
        elif c in _CLOSE:
            paren -= 1
            if paren < 0:
                return None
        elif paren == 0 and c == "<":
            angle += 1
        elif paren == 0 and c == ">":
            if angle == 0:
                spans.append((begin, i))
                return spans
            angle -= 1
        elif paren == 0 and angle == 0 and c == ",":
            spans.append((begin, i))
            begin = i + 1
        elif c in ";{}":
            return None
    return None
