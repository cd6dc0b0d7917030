"""Plain, immutable values that flow through the pipeline (see docs/architecture.md).

Offsets are *character* offsets into the decoded source text (a Python ``str``),
never byte offsets; engines that see bytes (libclang) convert before building edits.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from enum import Enum


class Origin(str, Enum):
    """How an edit was derived, so reviewers know how much to trust it."""

    TOKEN = "token"  # a lexer/libclang token that names a table row
    AST = "ast"  # an AST node (launch extents, argument positions)
    TEXT = "text"  # structural text rule (includes, bracket matching)
    HEURISTIC = "heuristic"  # a guess (e.g. launch found by text in a macro body)


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` with ``replacement``; ``code`` names the rule."""

    start: int
    end: int
    replacement: str
    code: str
    origin: Origin = Origin.TOKEN
    # The CUDA name or construct that was rewritten (for stats and reports).
    subject: str = ""


@dataclass(frozen=True)
class Diagnostic:
    """Something a user should read: ``path:line:col: CODE message``."""

    code: str
    message: str
    offset: int = 0
    line: int = 0  # 1-based; 0 = whole file
    col: int = 0  # 1-based
    severity: Severity = Severity.WARNING
    subject: str = ""  # the CUDA name concerned, if any
    path: str = ""

    def format(self, path: str | None = None) -> str:
        where = path if path is not None else self.path
        if self.line:
            where = f"{where}:{self.line}:{self.col}"
        return f"{where}: {self.code} {self.message}"


@dataclass(frozen=True)
class SourceFile:
    path: str
    text: str


@dataclass(frozen=True)
class EngineResult:
    edits: tuple[Edit, ...]
    diagnostics: tuple[Diagnostic, ...]
    engine: str  # "regex" or "clang"


@dataclass(frozen=True)
class LineIndex:
    """Maps character offsets to 1-based (line, column) in O(log n)."""

    starts: tuple[int, ...] = field(default=(0,))

    @classmethod
    def of(cls, text: str) -> LineIndex:
        starts = [0]
        find = text.find
        pos = find("\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        return cls(tuple(starts))

    def line_col(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def offset(self, line: int, col: int) -> int:
        """Inverse of :meth:`line_col` (1-based line and column)."""
        return self.starts[line - 1] + col - 1


def located(diag: Diagnostic, index: LineIndex) -> Diagnostic:
    """Fill line/col of a diagnostic from its offset."""
    line, col = index.line_col(diag.offset)
    return Diagnostic(diag.code, diag.message, diag.offset, line, col, diag.severity, diag.subject, diag.path)
