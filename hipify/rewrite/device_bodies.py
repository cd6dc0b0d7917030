"""Which function body an offset of the code stands in: device-only, host-and-device, or neither.

A body is one opened after a ``__global__`` or ``__device__`` keyword and not closed before the offset; its head (the
text since the last ``;`` or ``}`` before the keyword) may also say ``__host__``. Read from the masked text (comments
and literal interiors blanked), so a keyword in a comment or a string counts for nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_DEVICE_KEYWORD = re.compile(r"__(?:global|device)__")  # a word of its own: checked by _is_word (a leading
# lookbehind would be tried at every offset of the file)
_HOST = re.compile(r"(?<![\w$])__host__(?![\w$])")
_BODY_OR_END = re.compile(r"[{;]")
_BRACE = re.compile(r"[{}]")
_CONDITIONAL = re.compile(r"^[ \t]*#[ \t]*(ifdef|ifndef|if|elif|else|endif)\b", re.MULTILINE)
_NAME_BEFORE_PARAMETERS = re.compile(r"([A-Za-z_]\w*)\s*\(")


@dataclass(frozen=True)
class DeviceBody:
    name: str  # the function's name ("" when unnamed)
    host_too: bool  # declared __host__ __device__: compiled for the host as well


def device_keywords(masked: str) -> list[int]:
    """Offsets of the ``__global__``/``__device__`` keywords of the code, in order."""
    return [m.start() for m in _DEVICE_KEYWORD.finditer(masked) if _is_word(masked, m.start(), m.end())]


def device_body_around(masked: str, keywords: list[int], at: int) -> DeviceBody | None:
    """The device function whose body holds offset ``at``, or None. Functions do not nest, so only the nearest
    device keyword before ``at`` that opens a body can be it: if that body closes before ``at``, ``at`` is host
    code."""
    for keyword in reversed([k for k in keywords if k < at]):
        m = _BODY_OR_END.search(masked, keyword, at)
        if m is None:
            return None  # ``at`` is in the declaration's own head
        if m.group() == ";":
            continue  # a __device__ variable or a prototype: not a body
        head_start = max(masked.rfind(";", 0, keyword), masked.rfind("}", 0, keyword)) + 1
        head = masked[head_start : m.start()]
        if _closes_before(masked, m.start(), at):
            return None
        names = _NAME_BEFORE_PARAMETERS.findall(head)
        return DeviceBody(names[0] if names else "", _HOST.search(head) is not None)
    return None


def _is_word(text: str, start: int, end: int) -> bool:
    return not (start and _word_char(text[start - 1])) and not (end < len(text) and _word_char(text[end]))


def _word_char(char: str) -> bool:
    return char.isalnum() or char in "_$"


def _closes_before(masked: str, opening: int, at: int) -> bool:
    """Does the brace at ``opening`` close before offset ``at``? Braces of an ``#elif``/``#else`` branch are not
    counted: each branch of a conditional may open the same block (``} else {`` per architecture), which one
    closing brace after the ``#endif`` ends; the first branch stands for them all."""
    depth = 0
    skipped = _later_branches(masked, opening, at) if "#" in masked[opening:at] else []
    for m in _BRACE.finditer(masked, opening, at):
        if any(s <= m.start() < e for s, e in skipped):
            continue
        depth += 1 if m.group() == "{" else -1
        if depth == 0:
            return True
    return False


_MACRO_WORD = re.compile(r"\b[A-Z][A-Z0-9_]*[A-Z0-9]\b")  # HOST_DEVICE, GGML_CUDA_INLINE: may expand to __device__


def host_only_head(head: str) -> bool:
    """Is a function with this head (its text before the body's brace) compiled for the host alone? No
    ``__device__``/``__global__`` in it, and no all-capitals word that could be a macro standing for one: a CUDA
    device function named in such a body is no CUDA call (nvcc would refuse it), but the project's own name."""
    return _DEVICE_KEYWORD.search(head) is None and _MACRO_WORD.search(head) is None


def _later_branches(masked: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of ``#elif``/``#else`` branches (up to their ``#endif``) between ``start`` and ``end``."""
    spans: list[tuple[int, int]] = []
    opened: list[int] = []  # per open #if: where its later branches began (-1: in its first branch)
    for m in _CONDITIONAL.finditer(masked, start, end):
        keyword = m.group(1)
        if keyword.startswith("if"):
            opened.append(-1)
        elif keyword in ("elif", "else") and opened:
            if opened[-1] < 0:
                opened[-1] = m.start()
        elif keyword == "endif" and opened:
            began = opened.pop()
            if began >= 0:
                spans.append((began, m.start()))
    spans += [(began, end) for began in opened if began >= 0]
    return spans
