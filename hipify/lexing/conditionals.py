"""Which ``#if`` branches are certainly skipped, decided only where it is obvious.

``#if 0``/``#if 1``, ``#ifdef``/``#ifndef``/``defined(X)`` against ``-D`` names, and
``#if X`` for a ``-D X=N``. Anything else is *unknown* and treated as active, because
the regex engine cannot see the headers that might define it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..model import Span
from . import condition_expr

_DEFINED = re.compile(r"^(!?)\s*defined\s*(?:\(\s*(\w+)\s*\)|(\w+))$")
_NAME = re.compile(r"\s*([A-Za-z_]\w*)")
_NUMBER = re.compile(r"^\(?\s*(\d+)[uUlL]*\s*\)?$")


class Conditional(Protocol):
    """A directive line as the lexing layer reads it (a ``CondDirective``, or the text facts' ``Directive``)."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def keyword(self) -> str: ...
    @property
    def argument(self) -> str: ...


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


def _evaluate_against(defines: dict[str, str], keyword: str, argument: str) -> bool | None:
    return evaluate(keyword, argument, defines)


def inactive_spans(
    directives: Sequence[CondDirective],
    defines: dict[str, str],
    decide: Callable[[str, str], bool | None] | None = None,
) -> list[Span]:
    """Spans of text (from the end of a directive line to the next branch directive) that are skipped.
    ``decide(keyword, argument)`` replaces :func:`evaluate` against ``defines``."""
    if decide is None:
        decide = functools.partial(_evaluate_against, defines)
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
            value = decide(kw, d.argument) if not before else None
            stack.append([before, value is True, before or value is False])
        elif kw == "elif" and stack:
            frame = stack[-1]
            value = decide("if", d.argument) if not (frame[0] or frame[1]) else None
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


# The macro prefix of the conditions behind which the translation leaves out code that needs an API HIP lacks
# (``rewrite/rules/unavailable.py``); defining such a macro is the user's decision, so the translation reads the
# code as left out.
LEFT_OUT_PREFIX = "HIPIFY_ENABLE_"


def value_without(argument: str, undefined: frozenset[str], never_defined: frozenset[str] = frozenset()) -> bool | None:
    """The value of an ``#if``/``#elif`` condition where each of ``undefined`` is 0 (as the preprocessor counts an
    undefined macro), e.g. ``CUDART_VERSION >= 11000``, and ``defined`` of each of ``never_defined`` (macros no HIP
    header defines and no translation renames) and of a left-out switch is false; None where it hangs on another
    name. Read three-valued: ``CUDART_VERSION >= 12080 && defined(__linux__)`` is 0 whatever ``__linux__`` is."""
    node = condition_expr.parse(argument)
    if node is None:
        return None

    def value_of(name: str) -> int | None:
        return 0 if name in undefined else None

    def defined(name: str) -> bool | None:
        return False if name in never_defined or name.startswith(LEFT_OUT_PREFIX) else None

    value = condition_expr.evaluate(node, value_of, defined)
    return None if value is None else bool(value)


def skipped_without(
    directives: Sequence[CondDirective], undefined: frozenset[str], never_defined: frozenset[str] = frozenset()
) -> list[Span]:
    """Spans certainly skipped when the ``undefined`` macros are not defined (``#if CUDART_VERSION >= 11000``
    under HIP), ``never_defined`` ones not even renamed (``#if defined(CUBLAS_VERSION)``); every other condition
    counts as unknown."""
    return inactive_spans(
        directives, {}, lambda keyword, argument: _skipped_value(keyword, argument, undefined, never_defined)
    )


def skipped_with_derived(
    directives: Sequence[CondDirective], undefined: frozenset[str], never_defined: frozenset[str] = frozenset()
) -> list[Span]:
    """:func:`skipped_without`, and then also what tests a macro this file defines only inside those spans: a
    feature switch derived from a version test (``#if CUDART_VERSION >= 12080`` / ``#define HAS_DECOMPRESS 1``) is
    not defined where the test is decided false, so ``#if defined(HAS_DECOMPRESS)`` is skipped there too. Only the
    file's own definitions are read (a build that passes ``-DHAS_DECOMPRESS`` or another header defining it is not
    seen); a macro defined anywhere outside the skipped spans keeps its tests unknown."""
    spans = skipped_without(directives, undefined, never_defined)
    defines = [(m.group(1), d.start) for d in directives if d.keyword == "define" and (m := _NAME.match(d.argument))]
    if not spans or not defines:
        return spans
    for _ in range(4):  # a switch defined only under another such switch
        derived = _defined_only_in(defines, spans) - never_defined
        if not derived:
            break
        undefined, never_defined = undefined | derived, never_defined | derived  # ``#if HAS_X`` is 0 there too
        spans = skipped_without(directives, undefined, never_defined)
    return spans


def _defined_only_in(defines: Sequence[tuple[str, int]], spans: Sequence[Span]) -> frozenset[str]:
    """The macros whose every ``#define`` (name, offset) lies in one of ``spans`` (an end of -1: the file's end)."""
    inside: set[str] = set()
    outside: set[str] = set()
    for name, at in defines:
        (inside if any(s <= at and (at < e or e < 0) for s, e in spans) else outside).add(name)
    return frozenset(inside - outside)


def _skipped_value(
    keyword: str, argument: str, undefined: frozenset[str], never_defined: frozenset[str]
) -> bool | None:
    if keyword == "if":
        return value_without(argument, undefined, never_defined)
    words = argument.split()
    if keyword in ("ifdef", "ifndef") and words and words[0] in never_defined:
        return keyword == "ifndef"  # ``#ifdef __CUDA_ARCH_LIST__``: no HIP compiler or header defines it
    return None


def bodies_after(directives: Sequence[Conditional], tests: Callable[[Conditional], bool]) -> list[Span]:
    """The bodies of the ``#if`` branches whose chain has, in this branch's condition or an earlier one, a
    condition that ``tests``: whether such a branch is taken hangs on it. A body runs from the end of its directive
    to the start of the chain's next one (end -1: an unterminated chain, to the end of the file)."""
    stack: list[list[int]] = []  # per open chain: [has a condition so far been one that ``tests``, its body's start]
    spans: list[Span] = []
    for d in directives:
        kw = d.keyword
        if kw in ("if", "ifdef", "ifndef"):
            stack.append([kw == "if" and tests(d), -1])
        elif kw in ("elif", "else", "endif") and stack:
            frame = stack[-1]
            if frame[1] >= 0:
                spans.append((frame[1], d.start))
            if kw == "endif":
                stack.pop()
                continue
            frame[0] = frame[0] or (kw == "elif" and tests(d))
        else:
            continue
        frame = stack[-1]
        frame[1] = d.end if frame[0] else -1
    spans += [(frame[1], -1) for frame in stack if frame[1] >= 0]
    return sorted(spans)
