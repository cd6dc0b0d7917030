"""The registry of rewrite rules: each rule is one small module with one function.

A rule takes the planning :class:`~hipify.rewrite.context.Context` and yields edits and
diagnostics. Rules never apply anything; the planner collects, filters (suppression
comments) and hands back one :class:`~hipify.model.EngineResult`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ..model import Diagnostic, Edit

if TYPE_CHECKING:
    from .context import Context

Finding = Edit | Diagnostic
Rule = Callable[["Context"], Iterable[Finding]]

RULES: dict[str, Rule] = {}


def register(name: str) -> Callable[[Rule], Rule]:
    """Add a rule under ``name`` (the planner runs rules in name order)."""

    def deco(fn: Rule) -> Rule:
        if name in RULES:
            raise ValueError(f"rule registered twice: {name}")
        RULES[name] = fn
        return fn

    return deco
