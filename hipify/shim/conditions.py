"""Under which of the project's own conditions each CUDA header is included: the single header includes a HIP
library's header (hipCUB, RCCL, cooperative groups) under the same ones, so that a file compiled without the
project's option that selects the library does not read it (nor need it installed).

A condition is the conjunction of the ``#if`` branches around the include, as written. A branch testing a name the
header itself decides (nvcc's macros, any CUDA name of the table), a header's include guard or ``__has_include`` is
taken as true: those are not the project's options.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Container

from ..lexing.lexer import lex
from ..lexing.text_facts import INCLUDE, directives_of

ALWAYS = ""  # the condition of an include outside every #if (or under none of the project's options)
_WORD = re.compile(r"[A-Za-z_]\w*")
_NOT_OPTIONS = frozenset(("defined", "__has_include", "__has_include_next", "__has_builtin", "__has_feature"))


def include_conditions(text: str, decided: Container[str]) -> list[tuple[str, str]]:
    """(included name, condition) for each include of ``text``; ``decided``: names whose tests count as true."""
    lexed = lex(text)
    directives = directives_of(text, lexed)
    guards = {
        d.argument.split()[0]
        for d, after in itertools.pairwise(directives)
        if d.keyword == "ifndef"
        and d.argument
        and after.keyword == "define"
        and after.argument.split()[:1] == d.argument.split()[:1]
    }
    defined_here: dict[str, str] = {}  # macro -> the condition it is defined under in this file (the first)
    frames: list[list[str]] = []  # per open #if: the conditions of its branches so far (the last is the current)
    found: list[tuple[str, str]] = []
    for d in directives:
        keyword, argument = d.keyword, d.argument.strip()
        if keyword == "define" and argument:
            name = re.split(r"[\s(]", argument, maxsplit=1)[0]
            defined_here.setdefault(name, _conjunction(frames))
        elif keyword in ("if", "ifdef", "ifndef"):
            frames.append([_branch(keyword, argument, decided, defined_here, guards)])
        elif keyword in ("elif", "else") and frames:
            frame = frames[-1]
            current = _branch("if", argument, decided, defined_here, guards) if keyword == "elif" else ALWAYS
            if any(c == ALWAYS for c in frame):  # after a branch not decided by options: taken as true too
                frame.append(ALWAYS)
                continue
            earlier = " && ".join(f"!({c})" for c in frame)
            frame.append(" && ".join(p for p in (earlier, f"({current})" if current else "") if p))
        elif keyword == "endif" and frames:
            frames.pop()
        elif keyword in ("include", "include_next"):
            m = INCLUDE.match(text, d.start, d.end)
            if m is not None:
                found.append((m.group(2).strip(), _conjunction(frames)))
    return found


def _conjunction(frames: list[list[str]]) -> str:
    return " && ".join(f"({frame[-1]})" for frame in frames if frame[-1] != ALWAYS)


def _branch(
    keyword: str, argument: str, decided: Container[str], defined_here: dict[str, str], guards: set[str]
) -> str:
    """The condition of one branch as the project's options decide it, or ALWAYS. Of a conjunction, the parts
    testing what is no option (a CUDA macro, a compiler's mark) are left out; a macro this file defines stands for
    the condition it is defined under (``#ifdef USE_CUB`` where ``USE_CUB`` is defined only without the project's
    HIP option); an include guard is no condition."""
    name = argument.split()[0] if argument else ""
    if keyword in ("ifdef", "ifndef") and name in guards:
        return ALWAYS
    if keyword == "ifdef" and name in defined_here:
        return defined_here[name]
    if keyword == "ifdef":
        argument = f"defined({name})"
    elif keyword == "ifndef":
        if name in defined_here:
            return ALWAYS
        argument = f"!defined({name})"
    kept = []
    for part in _top_level_and(argument):
        words = set(_WORD.findall(part)) - _NOT_OPTIONS
        if words and not any(w in decided or w in defined_here or w.startswith("__") for w in words):
            kept.append(part.strip())
    return " && ".join(kept) if kept else ALWAYS


def _top_level_and(expression: str) -> list[str]:
    """``expression``'s operands of ``&&`` outside parentheses (the whole of it when it has ``||`` outside them)."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(expression):
        c = expression[i]
        depth += (c == "(") - (c == ")")
        if depth == 0 and expression.startswith("||", i):
            return [expression]
        if depth == 0 and expression.startswith("&&", i):
            parts.append(expression[start:i])
            start = i + 2
            i += 1
        i += 1
    return [*parts, expression[start:]]


def any_of(conditions: list[str]) -> str:
    """Several includes' conditions as one: ALWAYS when any is."""
    if not conditions or any(c == ALWAYS for c in conditions):
        return ALWAYS
    unique = sorted(set(conditions))
    return unique[0] if len(unique) == 1 else " || ".join(f"({c})" for c in unique)
