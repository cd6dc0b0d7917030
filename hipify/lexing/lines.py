"""Line ends as clang reads them: LF, CRLF and a lone CR (old Mac files, and files that mix them).

Every rule that looks for the start or the end of a line, or picks the line ending of the
lines it inserts, asks here, so that a CR-only line is a line everywhere, as it is for the
compiler (an include inserted "at the start of the line" never lands inside what clang reads
as the line before it, a ``//`` comment's line among them).
"""

from __future__ import annotations


def line_start(text: str, offset: int) -> int:
    """The start of the line holding ``offset`` (just after the previous CR or LF)."""
    return max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1


def line_end(text: str, offset: int) -> int:
    """The offset of the line end (CR or LF; the CR of a CRLF) at or after ``offset``, or ``len(text)``."""
    lf = text.find("\n", offset)
    cr = text.find("\r", offset, len(text) if lf < 0 else lf)
    if cr >= 0:
        return cr
    return len(text) if lf < 0 else lf


def newline_of(text: str) -> str:
    """The file's line ending (that of its first line), for the lines a translation inserts."""
    end = line_end(text, 0)
    if end == len(text) or text[end] == "\n":
        return "\n"
    return "\r\n" if text.startswith("\n", end + 1) else "\r"
