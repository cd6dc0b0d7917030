"""What a file's ``#if`` chains say about architecture and version tiers, found from its directives alone.

Modern CUDA code decides its tiers in one shared header and tests them elsewhere: ``common.cuh`` defines
``MMA_AVAILABLE`` under ``__CUDA_ARCH__ >= CC_TURING`` (with ``#define CC_TURING 750`` beside it), and an op file
guards its inline-PTX fast path with ``#ifdef MMA_AVAILABLE``. Which build the translation decides such conditions
for (``rewrite/rules/build_conditions.py``) therefore needs two facts that cross files: the numeric constants the
conditions compare with, and the macros whose branches hold code HIP cannot compile. The project scan reads both
from each file (:func:`numeric_constants`, :func:`guards_of`) and the project model hands them to the files that
need them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .condition_expr import Node, parse
from .conditionals import Conditional

Span = tuple[int, int]

# Inline assembly: each spelling's lookbehind after it (a pattern that starts with a lookbehind is tried at every
# offset).
INLINE_ASM = re.compile(r"(?:asm(?<![\w$]asm)|__asm__(?<![\w$]__asm__)|__asm(?<![\w$]__asm))(?![\w$])")
_CONSTANT = re.compile(r"([A-Za-z_]\w*)\s+\(?\s*(0[xX][0-9a-fA-F]+|[1-9]\d*|0)[uUlL]*\s*\)?\s*\Z")
_NAME = re.compile(r"[A-Za-z_]\w*")
_OPENS = frozenset(("if", "ifdef", "ifndef"))
_BRANCHES = frozenset(("elif", "else", "elifdef", "elifndef"))


@dataclass(frozen=True)
class Branch:
    keyword: str  # if, ifdef, ifndef, elif, else
    argument: str  # the condition as written (the macro name for ifdef/ifndef)
    body: Span  # from the end of its directive line to the start of the next directive of the chain


def numeric_constants(directives: Iterable[Conditional]) -> dict[str, int]:
    """Object-like macros defined once as a number and never undefined (``#define CC_PASCAL 600``), as conditions
    compare the architecture with them (``__CUDA_ARCH__ >= CC_PASCAL``)."""
    values: dict[str, int] = {}
    seen: set[str] = set()
    for d in directives:
        if d.keyword not in ("define", "undef"):
            continue
        words = d.argument.split()
        name = words[0].split("(")[0] if words else ""
        m = _CONSTANT.match(d.argument) if d.keyword == "define" else None
        if name in seen or m is None:
            values.pop(name, None)
        else:
            values[name] = int(m.group(2), 0)
        seen.add(name)
    return values


def branches(directives: Sequence[Conditional]) -> list[list[Branch]]:
    """The file's ``#if`` chains, each as its branches with their bodies, in file order of their openings."""
    chains: list[list[Branch]] = []
    stack: list[list[Branch]] = []
    pending: list[tuple[list[Branch], Conditional]] = []  # the branch of each open chain whose body is running
    for d in directives:
        keyword = d.keyword
        if keyword in _OPENS:
            chain: list[Branch] = []
            chains.append(chain)
            stack.append(chain)
            pending.append((chain, d))
        elif keyword in _BRANCHES or keyword == "endif":
            if not stack:
                continue
            chain, opened = pending.pop()
            chain.append(Branch(opened.keyword, opened.argument, (opened.end, d.start)))
            if keyword == "endif":
                stack.pop()
            else:
                pending.append((chain, d))
    return chains


def tested_positively(branch: Branch) -> frozenset[str]:
    """The macros whose definition (or value) makes ``branch`` taken: ``X`` of ``#ifdef X``, ``#if defined(X)``
    and ``#if X`` (not of ``#ifndef X`` or ``!defined(X)``)."""
    if branch.keyword == "ifdef":
        words = branch.argument.split()
        return frozenset(words[:1])
    if branch.keyword not in ("if", "elif"):
        return frozenset()
    try:
        node = parse(branch.argument)
    except ValueError:
        return frozenset()
    if node is None:
        return frozenset()
    found: set[str] = set()
    _positive(node, True, found)
    return frozenset(found)


def _positive(node: Node, positive: bool, found: set[str]) -> None:
    if node.kind in ("defined", "name"):
        if positive:
            found.add(node.value)
        return
    if node.kind == "unary" and node.value == "!":
        positive = not positive
    for child in node.children:
        _positive(child, positive, found)


def guards_of(directives: Sequence[Conditional], lacks: Callable[[Span], bool]) -> frozenset[str]:
    """The macros whose definition enables a branch of this file that holds code HIP cannot compile (``lacks``:
    inline PTX, an API HIP lacks): defining them where HIP compiles is what a build must not do."""
    found: set[str] = set()
    for chain in branches(directives):
        for branch in chain:
            names = tested_positively(branch)
            if names and not names <= found and lacks(branch.body):
                found |= names
    return frozenset(found)


def condition_words(directives: Iterable[Conditional], about: frozenset[str]) -> frozenset[str]:
    """The words of the ``#if``/``#elif`` conditions that name one of ``about`` (``__CUDA_ARCH__ >= CC_AMPERE``
    gives ``CC_AMPERE``): the constants such conditions compare with."""
    found: set[str] = set()
    for d in directives:
        if d.keyword in ("if", "elif"):
            words = set(_NAME.findall(d.argument))
            if words & about:
                found |= words - about - {"defined"}
    return frozenset(found)
