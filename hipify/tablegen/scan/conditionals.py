"""The #if structure around code tokens: which plain `#ifdef X` branches enclose each token, and which branches
are alternative spellings of one declaration head."""

from __future__ import annotations

import re
from itertools import pairwise

_COND = re.compile(r"#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b")
_IFDEF = re.compile(r"#\s*(?:ifdef\s+([A-Za-z_]\w*)|if\s+defined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*)))\s*$")


def enclosing_guards(count: int, marks: list[tuple[int, str]]) -> list[tuple[str, ...]]:
    """For each of ``count`` code tokens, the macros whose plain `#ifdef X` / `#if defined X` true branch encloses
    it. ``marks`` are the preprocessor lines with the index of the code token that follows each."""
    out: list[tuple[str, ...]] = []
    stack: list[str] = []  # per open conditional: the macro of a plain true branch, '' otherwise
    current: tuple[str, ...] = ()
    k = 0
    for pos, line in marks + [(count, "")]:
        while k < min(pos, count):
            out.append(current)
            k += 1
        text = line.strip()
        m = _COND.match(text)
        if not m:
            continue
        d = m.group(1)
        if d in ("if", "ifdef", "ifndef"):
            g = _IFDEF.match(text)
            stack.append(next((x for x in g.groups() if x), "") if g else "")
        elif not stack:
            continue
        elif d == "endif":
            stack.pop()
        else:
            stack[-1] = ""
        current = tuple(x for x in stack if x)
    return out


def alternative_branches(texts: list[str], marks: list[tuple[int, str]]) -> set[int]:
    """Token indexes of the later branches of #if groups whose every branch opens (or closes) the same number of
    braces: alternative spellings of one declaration head (`#if X inline T t[] = { #else static T t[] = { #endif`)
    would otherwise leave the union of all branches unbalanced and swallow the rest of the file."""
    drop: set[int] = set()
    stack: list[list[int]] = []  # per open group: token index where each branch starts
    for pos, line in marks:
        m = _COND.match(line.strip())
        if not m:
            continue
        d = m.group(1)
        if d.startswith("if"):
            stack.append([pos])
        elif not stack:
            continue
        elif d == "endif":
            starts = stack.pop() + [pos]
            if len(starts) < 3:
                continue  # a single branch: nothing alternative
            deltas = []
            for a, b in pairwise(starts):
                delta = 0
                for k in range(a, b):
                    if k in drop:
                        continue
                    t = texts[k]
                    delta += (t == "{") - (t == "}")
                deltas.append(delta)
            if deltas[0] != 0 and all(x == deltas[0] for x in deltas):
                drop.update(range(starts[1], pos))
        else:
            stack[-1].append(pos)
    return drop
