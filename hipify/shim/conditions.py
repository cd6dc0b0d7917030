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

from ..lexing.conditionals import CondDirective
from ..lexing.lexer import lex
from ..lexing.text_facts import INCLUDE, directives_of

ALWAYS = ""  # the condition of an include outside every #if (or under none of the project's options)
_WORD = re.compile(r"[A-Za-z_]\w*")
_NOT_OPTIONS = frozenset(("defined", "__has_include", "__has_include_next", "__has_builtin", "__has_feature"))


def include_conditions(
    text: str, decided: Container[str], options: Container[str] = frozenset()
) -> list[tuple[str, str]]:
    """(included name, condition) for each include of ``text``; ``decided``: names whose tests count as true;
    ``options``: the project's platform options, whose tests count as true in a chain choosing the project's vendor
    header (``#if defined(USE_HIP) #include "vendors/hip.h" #else #include <cuda_runtime.h>``: the header is read
    in the build defining the option, and stands for what the other branches include), and stay conditions
    elsewhere (``#ifdef USE_HIP <hip/hip_cooperative_groups.h> #else <cooperative_groups.h>``: the project's HIP
    build includes its own, and the CUDA header's stand-in is not needed there)."""
    lexed = lex(text)
    directives = directives_of(text, lexed)
    vendor_chains = _chains_including_project_files(text, directives)
    with_options = _Either(decided, options)
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
    chain_decides: list[Container[str]] = []  # per open #if: the names its chain's tests count as true
    for i, d in enumerate(directives):
        keyword, argument = d.keyword, d.argument.strip()
        if keyword == "define" and argument:
            name = re.split(r"[\s(]", argument, maxsplit=1)[0]
            defined_here.setdefault(name, _conjunction(frames))
        elif keyword in ("if", "ifdef", "ifndef"):
            chain_decides.append(with_options if i in vendor_chains else decided)
            frames.append([_branch(keyword, argument, chain_decides[-1], defined_here, guards)])
        elif keyword in ("elif", "else") and frames:
            frame = frames[-1]
            here = chain_decides[-1]
            current = _branch("if", argument, here, defined_here, guards) if keyword == "elif" else ALWAYS
            if any(c == ALWAYS for c in frame):  # after a branch not decided by options: taken as true too
                frame.append(ALWAYS)
                continue
            earlier = " && ".join(f"!({c})" for c in frame)
            frame.append(" && ".join(p for p in (earlier, f"({current})" if current else "") if p))
        elif keyword == "endif" and frames:
            frames.pop()
            chain_decides.pop()
        elif keyword in ("include", "include_next"):
            m = INCLUDE.match(text, d.start, d.end)
            if m is not None:
                found.append((m.group(2).strip(), _conjunction(frames)))
    return found


class _Either:
    """Names of either container."""

    def __init__(self, first: Container[str], second: Container[str]) -> None:
        self.first = first
        self.second = second

    def __contains__(self, name: object) -> bool:
        return name in self.first or name in self.second


def _chains_including_project_files(text: str, directives: list[CondDirective]) -> frozenset[int]:
    """The indices of the ``#if`` directives (of ``directives``) whose chain includes a file of the project
    (``#include "..."``) in one of its branches, not nested deeper."""
    open_: list[int] = []
    found: set[int] = set()
    for i, d in enumerate(directives):
        if d.keyword in ("if", "ifdef", "ifndef"):
            open_.append(i)
        elif d.keyword == "endif" and open_:
            open_.pop()
        elif d.keyword in ("include", "include_next") and open_:
            m = INCLUDE.match(text, d.start, d.end)
            if m is not None and m.group(1) == '"':
                found.add(open_[-1])
    return frozenset(found)


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
