"""The registry of rewrite rules: each rule is one small module with one function.

A rule takes the planning :class:`~hipify.rewrite.context.Context` and yields edits and
diagnostics. Rules never apply anything; the planner collects, filters (suppression
comments) and hands back one :class:`~hipify.model.EngineResult`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ..model import Diagnostic, Edit, Origin, Severity

if TYPE_CHECKING:
    from .context import Context

Finding = Edit | Diagnostic
Rule = Callable[["Context"], Iterable[Finding]]

RULES: dict[str, Rule] = {}

_new = object.__new__
_set = object.__setattr__


def make_edit(start: int, end: int, replacement: str, code: str, origin: Origin, subject: str) -> Edit:
    """``Edit(...)`` without the frozen dataclass's per-field ``object.__setattr__`` calls
    (half the cost; renames make one per CUDA identifier). Equal to ``Edit(...)``."""
    edit = _new(Edit)
    edit.__dict__.update(start=start, end=end, replacement=replacement, code=code, origin=origin, subject=subject)
    return edit


def make_diagnostic(code: str, message: str, offset: int, severity: Severity, subject: str) -> Diagnostic:
    """``Diagnostic(...)`` the same fast way (status findings repeat once per use)."""
    diag = _new(Diagnostic)
    _set(
        diag,
        "__dict__",
        {
            "code": code,
            "message": message,
            "offset": offset,
            "line": 0,
            "col": 0,
            "severity": severity,
            "subject": subject,
            "path": "",
        },
    )
    return diag


def register(name: str) -> Callable[[Rule], Rule]:
    """Add a rule under ``name`` (its order of registration is its order of running)."""

    def deco(fn: Rule) -> Rule:
        if name in RULES:
            raise ValueError(f"rule registered twice: {name}")
        RULES[name] = fn
        return fn

    return deco
