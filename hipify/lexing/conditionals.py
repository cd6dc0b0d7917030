"""Which ``#if`` branches are certainly skipped, decided only where it is obvious.

``#if 0``/``#if 1``, ``#ifdef``/``#ifndef``/``defined(X)`` against ``-D`` names, and
``#if X`` for a ``-D X=N``. Anything else is *unknown* and treated as active, because
the regex engine cannot see the headers that might define it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..model import Span

_DEFINED = re.compile(r"^(!?)\s*defined\s*(?:\(\s*(\w+)\s*\)|(\w+))$")
_NUMBER = re.compile(r"^\(?\s*(\d+)[uUlL]*\s*\)?$")


@dataclass(frozen=True)
class CondDirective:
    start: int
    end: int
    keyword: str
    argument: str


def parse_defines(defines: Sequence[str]) -> dict[str, str]:
    """``("A", "B=2")`` -> ``{"A": "1", "B": "2"}`` (as ``-D`` means)."""
    out: dict[str, str] = {}
    for item in defines:
        name, _, value = item.partition("=")
        if name.strip():
            out[name.strip()] = value.strip() if _ else "1"
    return out


def evaluate(keyword: str, argument: str, defines: dict[str, str]) -> bool | None:
    """True/False when the condition is certain, None when unknown."""
    arg = argument.strip()
    if keyword == "ifdef":
        return True if arg in defines else None
    if keyword == "ifndef":
        return False if arg in defines else None
    m = _NUMBER.match(arg)
    if m:
        return int(m.group(1)) != 0
    if arg in ("true", "false"):
        return arg == "true"
    m = _DEFINED.match(arg)
    if m:
        name = m.group(2) or m.group(3)
        if name in defines:
            return not m.group(1)
        return None
    if arg in defines:
        value = _NUMBER.match(defines[arg])
        return int(value.group(1)) != 0 if value else None
    return None


def inactive_spans(directives: Sequence[CondDirective], defines: dict[str, str]) -> list[Span]:
    """Spans of text (from the end of a directive line to the next branch directive) that are skipped."""
    # Frame: [parent_inactive, some_branch_certainly_taken, this_branch_inactive]
    stack: list[list[bool]] = []
    spans: list[Span] = []
    inactive_from = -1

    def now_inactive() -> bool:
        return bool(stack) and stack[-1][2]

    for d in directives:
        before = now_inactive()
        kw = d.keyword
        if kw in ("if", "ifdef", "ifndef"):
            value = evaluate(kw, d.argument, defines) if not before else None
            stack.append([before, value is True, before or value is False])
        elif kw == "elif" and stack:
            frame = stack[-1]
            value = evaluate("if", d.argument, defines) if not (frame[0] or frame[1]) else None
            frame[2] = frame[0] or frame[1] or value is False
            frame[1] = frame[1] or value is True
        elif kw == "else" and stack:
            frame = stack[-1]
            frame[2] = frame[0] or frame[1]
            frame[1] = True
        elif kw == "endif" and stack:
            stack.pop()
        else:
            continue
        after = now_inactive()
        if not before and after:
            inactive_from = d.end
        elif before and not after:
            spans.append((inactive_from, d.start))
    if now_inactive() and inactive_from >= 0:
        spans.append((inactive_from, -1))  # unterminated: to the end of the file
    return spans
