"""Put a whole top-level declaration behind a preprocessor condition, visibly and reversibly."""

from __future__ import annotations

from collections.abc import Iterator

from ..lexing.declarations import Declaration
from ..model import Edit, Origin


def already_wrapped(text: str, decl: Declaration, condition: str) -> bool:
    """Is the line before the declaration's line ``#if <condition>`` (an earlier run's work)?"""
    line_start = text.rfind("\n", 0, decl.start) + 1
    if line_start == 0:
        return False
    previous = text[text.rfind("\n", 0, line_start - 1) + 1 : line_start - 1]
    return previous.strip() == f"#if {condition}"


def wrap(text: str, nl: str, decl: Declaration, comment: str, condition: str, code: str) -> Iterator[Edit]:
    """``// hipify-py: <comment>`` and ``#if <condition>`` before the declaration, ``#endif`` after
    it, each on a line of its own (the declaration's own lines are kept byte for byte)."""
    line_start = text.rfind("\n", 0, decl.start) + 1
    opening = f"// hipify-py: {comment}{nl}#if {condition}{nl}"
    if text[line_start : decl.start].strip():
        yield Edit(decl.start, decl.start, nl + opening, code, Origin.TEXT, subject=decl.name)
    else:
        yield Edit(line_start, line_start, opening, code, Origin.TEXT, subject=decl.name)
    line_end = text.find("\n", decl.end)
    line_end = len(text) if line_end < 0 else line_end
    closing = f"#endif  // {condition}"
    if text[decl.end : line_end].strip():
        yield Edit(decl.end, decl.end, f"{nl}{closing}{nl}", code, Origin.TEXT, subject=decl.name)
    else:
        end = line_end - 1 if line_end and text[line_end - 1] == "\r" else line_end
        yield Edit(end, end, f"{nl}{closing}", code, Origin.TEXT, subject=decl.name)
