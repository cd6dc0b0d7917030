"""Put a whole top-level declaration behind a preprocessor condition, visibly and reversibly."""

from __future__ import annotations

from collections.abc import Iterator

from ..lexing.declarations import Declaration
from ..lexing.lines import line_end, line_start
from ..model import Edit, Origin


def already_wrapped(text: str, decl: Declaration, condition: str) -> bool:
    """Is the line before the declaration's line ``#if <condition>`` (an earlier run's work)?"""
    start = line_start(text, decl.start)
    if start == 0:
        return False
    end = start - 1
    if end > 0 and text[end] == "\n" and text[end - 1] == "\r":
        end -= 1
    previous = text[line_start(text, end) : end]
    return previous.strip() == f"#if {condition}"


def wrap(
    text: str, nl: str, decl: Declaration, comment: str, condition: str, code: str, otherwise: str = ""
) -> Iterator[Edit]:
    """``// hipify-py: <comment>`` and ``#if <condition>`` before the declaration, ``#endif`` after
    it, each on a line of its own (the declaration's own lines are kept byte for byte); ``otherwise``:
    what an ``#else`` branch holds."""
    start = line_start(text, decl.start)
    opening = f"// hipify-py: {comment}{nl}#if {condition}{nl}"
    if text[start : decl.start].strip():
        yield Edit(decl.start, decl.start, nl + opening, code, Origin.TEXT, subject=decl.name)
    else:
        yield Edit(start, start, opening, code, Origin.TEXT, subject=decl.name)
    end = line_end(text, decl.end)
    closing = f"#else{nl}{otherwise}{nl}#endif  // {condition}" if otherwise else f"#endif  // {condition}"
    if text[decl.end : end].strip():
        yield Edit(decl.end, decl.end, f"{nl}{closing}{nl}", code, Origin.TEXT, subject=decl.name)
    else:
        yield Edit(end, end, f"{nl}{closing}", code, Origin.TEXT, subject=decl.name)
