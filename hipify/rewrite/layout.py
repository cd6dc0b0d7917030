"""The file's preprocessor layout: conditional nesting and where a new include line goes."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from ..lexing import lines
from ..lexing.facts import Directive, Region, Span

_OPEN = ("if", "ifdef", "ifndef")


def branch_paths(directives: Sequence[Directive]) -> dict[int, tuple[int, ...]]:
    """For each directive start: the starts of the ``#if``/``#elif``/``#else`` branches around it."""
    paths: dict[int, tuple[int, ...]] = {}
    stack: list[int] = []
    for d in directives:
        if d.keyword in ("elif", "else", "endif") and stack:
            stack.pop()
        paths[d.start] = tuple(stack)
        if d.keyword in _OPEN or d.keyword in ("elif", "else"):
            stack.append(d.start)
    return paths


def same_branch(first: tuple[int, ...], later: tuple[int, ...]) -> bool:
    """Is ``later`` always compiled when ``first`` is (first's branches enclose later)?"""
    return later[: len(first)] == first


def only_blank(text: str, comments: Sequence[Span], start: int, end: int) -> bool:
    """Is ``text[start:end]`` only whitespace and comments (and a BOM)?"""
    cursor = start
    for cs, ce in comments:
        if ce <= cursor:
            continue
        if cs >= end:
            break
        if text[cursor:cs].strip("\ufeff \t\r\n\f\v"):
            return False
        cursor = ce
    return not text[cursor:end].strip("\ufeff \t\r\n\f\v")


def line_start(text: str, comments: Sequence[Span], offset: int) -> int:
    """The start of the line holding ``offset``; if a block comment spans that point (it began on
    an earlier line), the start of the comment's own line, and so on: a line inserted there is
    never inside a comment."""
    start = lines.line_start(text, offset)
    i = bisect.bisect_right(comments, (start, len(text) + 1)) - 1
    while i >= 0:
        cs, ce = comments[i]
        if cs < start < ce:
            start = lines.line_start(text, cs)
        elif ce <= start:
            break
        i -= 1
    return start


def _rest_of_line_is_blank(text: str, offset: int) -> bool:
    return not text[offset : lines.line_end(text, offset)].strip(" \t\f\v")


@dataclass(frozen=True)
class Anchor:
    """Where inserted lines go: ``after_line`` = insert after the line ending at ``offset``."""

    offset: int
    after_line: bool
    at_top: bool = False


def insertion_anchor(text: str, directives: Sequence[Directive], comments: Sequence[Span]) -> Anchor:
    """Per CONVENTIONS.md: after the include guard / ``#pragma once``; else before the first
    top-level ``#include``; else at the top (after a leading comment block)."""
    active = [d for d in directives if d.region is not Region.INACTIVE]
    candidates = []
    guard = _include_guard(text, active, comments)
    if guard is not None and not _spliced(text, guard.end):
        candidates.append(guard.end)
    paths = branch_paths(directives)
    for d in active:
        if d.keyword == "pragma" and d.argument.split()[:1] == ["once"] and not paths.get(d.start):
            if not _spliced(text, d.end):
                candidates.append(d.end)
            break
    if candidates:
        return Anchor(min(candidates), True)
    guard_branch = ()
    for d in active:
        if d.keyword in ("include", "import") and paths.get(d.start, ()) == guard_branch:
            return Anchor(line_start(text, comments, d.start), False)
    # Top of the file, after a leading comment block if there is one (the last comment of it
    # that ends its line: code after a comment on the same line stays below the insertion).
    last = -1
    for cs, ce in comments:
        if not only_blank(text, comments, 0, cs):
            break
        if text.startswith("/*", cs) and (ce - cs < 4 or not text.endswith("*/", cs, ce)):
            break  # an unterminated comment: a line after it would be inside it
        if _spliced(text, ce):
            break  # a // comment ending the file with a backslash: a line end after it would continue it
        if _rest_of_line_is_blank(text, ce):
            last = ce
    if last >= 0:
        return Anchor(last, True)
    return Anchor(1 if text.startswith("\ufeff") else 0, False, at_top=True)


def _spliced(text: str, end: int) -> bool:
    """Does what ends at ``end`` (a comment or a directive that ends the file) end in a backslash, or in a line
    splice? A line put after it would be joined to it."""
    head = text[:end]
    for line_end in ("\r\n", "\n\r", "\n", "\r"):
        if head.endswith(line_end):
            head = head[: -len(line_end)]
            break
    return head.rstrip(" \t\f\v").endswith("\\")


def translation_unit_anchor(text: str, directives: Sequence[Directive], comments: Sequence[Span]) -> Anchor | None:
    """Where definitions every header of a translation unit must see go in its main file: before
    the first ``#include`` (before the outermost ``#if`` around it; after an include guard).
    None when the file includes nothing."""
    guard = _include_guard(text, [d for d in directives if d.region is not Region.INACTIVE], comments)
    depth = 0
    opening = -1
    for d in directives:
        if d.region is Region.INACTIVE:
            continue
        if d.keyword in ("include", "include_next", "import"):
            if guard is not None:  # a guard opens the file: every include is inside it
                return Anchor(guard.end, True)
            start = opening if depth else d.start
            return Anchor(line_start(text, comments, start), False)
        if d.keyword in _OPEN:
            if depth == 0:
                opening = d.start
            depth += 1
        elif d.keyword == "endif" and depth:
            depth -= 1
    return None


def unconditional(text: str, directives: Sequence[Directive], comments: Sequence[Span], offset: int) -> bool:
    """Is ``offset`` outside every ``#if`` of the file (an include guard aside)? Code there is compiled whatever
    the macros: what must follow or precede it can be put beside it."""
    active = [d for d in directives if d.region is not Region.INACTIVE]
    guard = _include_guard(text, active, comments)
    depth = 0
    for d in active:
        if d.start >= offset:
            break
        if d.keyword in _OPEN:
            depth += 1
        elif d.keyword == "endif" and depth:
            depth -= 1
    return depth == (1 if guard is not None and guard.start < offset else 0)


def _include_guard(text: str, active: Sequence[Directive], comments: Sequence[Span]) -> Directive | None:
    """The ``#define X`` of an ``#ifndef X`` / ``#define X`` pair that opens the file."""
    if len(active) < 2:
        return None
    first, second = active[0], active[1]
    if not only_blank(text, comments, 0, first.start):
        return None
    name = ""
    if first.keyword == "ifndef":
        name = first.argument.strip()
    elif first.keyword == "if":
        arg = first.argument.replace(" ", "")
        if arg.startswith("!defined(") and arg.endswith(")"):
            name = arg[len("!defined(") : -1]
        elif arg.startswith("!defined"):
            name = arg[len("!defined") :]
    if not name or second.keyword != "define" or second.argument.split()[:1] != [name]:
        return None
    if not only_blank(text, comments, first.end, second.start):
        return None
    return second
