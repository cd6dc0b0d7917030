"""nvcc's compiler marks (``__NVCC__``, ``__CUDACC__``, ``__CUDACC_VER_MAJOR__``, ...) where a project tells hipcc
apart from nvcc itself.

The header defines nvcc's marks for hipcc (``__NVCC__`` as ``__HIPCC__``), so that the project's CUDA-only tests
(``#ifdef __NVCC__``) read hipcc as the CUDA compiler, as the translation renames them. A library that adapts itself
to HIP writes conditions that test both compilers (``#if defined(__NVCC__) && defined(__HIPCC__)`` before an
``#error``, ``#if defined(__NVCC__) ... #elif defined(__HIPCC__)``): there a mark means nvcc, and the translation
leaves it as written (``lexing.platform_branches.telling_hip_apart``). A header defines a macro once for every file,
so where the mark, defined, moves hipcc onto or off a branch the project wrote for HIP's compiler alone (the
``#error`` for nvcc as HIP's back end, the project's HIP branch after its CUDA one), the header leaves that mark
undefined, for the whole project: a project that tells the compilers apart knows that hipcc defines none of nvcc's
marks. A condition that reads the same either way (``#if defined(__CUDACC__) || defined(__HIPCC__)``), or where the
mark only gives the project's meaning (``(defined(__CUDACC__) || defined(__HIPCC__)) && !defined(__CUDA_ARCH__)``
in the device pass), keeps the mark defined.

Each mark left undefined is a note at the condition that asks for it (HPY150); each of the project's other
conditions whose branch then changes (a test of the mark alone, which the translation reads as hipcc's) is a
warning at its line (HPY151): where hipcc needs that branch, it needs a HIP test beside the mark's.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from ..lexing.condition_expr import Node, evaluate, parse
from ..lexing.conditionals import CondDirective
from ..lexing.lexer import lex
from ..lexing.platform_branches import (
    HIP_COMPILER_MACROS,
    NVCC_OWN_MACROS,
    hip_compilers_only,
    hipcc_skipped,
    telling_hip_apart,
)
from ..lexing.text_facts import directives_of
from ..model import Diagnostic, LineIndex, Severity
from ..reports.findings import shown_path
from ..rewrite.build_target import ASSUMED, Build
from .definitions import COMPILER, Definition

TOLD_APART = "HPY150"  # a mark left undefined: the condition that tells hipcc apart by it
BRANCH_CHANGED = "HPY151"  # a condition of the project's own whose branch changes with the mark left undefined

# What hipcc defines about itself for AMD GPUs (in both passes; HIP's headers define the platform), and what it never
# defines; __HIP_DEVICE_COMPILE__ is the device pass's.
_HIPCC = {"__HIPCC__": 1, "__HIP__": 1, "__HIP_PLATFORM_AMD__": 1}
_NEVER = frozenset(("__HIP_PLATFORM_NVIDIA__", "__HIP_PLATFORM_NVCC__", "__NVCOMPILER", "__CUDA__"))
_DEVICE_PASS = "__HIP_DEVICE_COMPILE__"
_NOT_MACROS = frozenset(("defined", "true", "false"))
_NAME = re.compile(r"[A-Za-z_]\w*")
_ENUMERATED = 8  # the most unknown names a condition's outcomes are enumerated over (the rest stay unknown)


@dataclass(frozen=True)
class Mark:
    """One of nvcc's marks the header defines: its value in each pass (None: not defined there)."""

    name: str
    host: int | None
    device: int | None


@dataclass(frozen=True)
class MarksDecision:
    undefined: tuple[tuple[str, str], ...]  # (mark, where the project tells hipcc apart by it: path:line)
    findings: Mapping[str, tuple[Diagnostic, ...]]  # by path


def compiler_marks(definitions: Iterable[Definition], build: Build) -> list[Mark]:
    """The header's definitions of nvcc's marks, with their values: a compiler mark is HIP's counterpart (1) in both
    passes, a version or architecture number is ``build``'s, in the passes nvcc defines it in."""
    out = []
    for d in definitions:
        if d.section != COMPILER or d.name not in NVCC_OWN_MACROS:
            continue
        if d.name in ASSUMED:
            assumed = build.assumed(d.name)
            out.append(Mark(d.name, assumed.host, assumed.device))
        else:
            out.append(Mark(d.name, 1, 1))
    return out


def decide_marks(texts: Mapping[str, str], marks: Sequence[Mark]) -> MarksDecision:
    """Which of ``marks`` the header leaves undefined for the project whose files are ``texts`` (path -> text), and
    the findings that say where and what changes."""
    if not marks:
        return MarksDecision((), {})
    chains = {path: _chains_of(text) for path, text in texts.items() if _mentions_any(text, marks)}
    told: dict[str, list[tuple[str, int]]] = {}  # mark -> (path, offset) of the conditions telling hipcc apart
    needed: dict[str, list[tuple[str, int]]] = {}  # mark -> own conditions whose branch it decides
    for path in sorted(chains):
        for chain in chains[path]:
            for mark in marks:
                if not chain.mentions(mark.name):
                    continue
                effect = _effect(chain, mark, marks)
                if effect == _MOVES_HIP_BRANCH and chain.tells_hip_apart:
                    told.setdefault(mark.name, []).append((path, chain.start))
                elif effect != _NONE and not chain.tells_hip_apart:
                    needed.setdefault(mark.name, []).append((path, chain.start))
    undefined = [m.name for m in marks if m.name in told]
    findings: dict[str, list[Diagnostic]] = {}
    for name in undefined:
        first = _place(told[name][0][0], texts[told[name][0][0]], told[name][0][1])
        for path, at in told[name]:
            message = (
                f"{name} is left undefined: the project tells hipcc apart from nvcc by it here, where the header's "
                f"definition would take nvcc's branch"
            )
            findings.setdefault(path, []).append(_at(path, texts[path], at, TOLD_APART, message, Severity.INFO))
        for path, at in needed.get(name, ()):
            message = (
                f"{name}: the header leaves it undefined (the project tells hipcc apart by it at {first}), so hipcc "
                f"skips the branch the translation takes here (as hipcc's); where hipcc needs it, add a HIP test "
                f"beside it (`defined({name}) || defined(__HIPCC__)`)"
            )
            findings.setdefault(path, []).append(_at(path, texts[path], at, BRANCH_CHANGED, message, Severity.WARNING))
    where = tuple((name, _place(told[name][0][0], texts[told[name][0][0]], told[name][0][1])) for name in undefined)
    return MarksDecision(where, {p: tuple(sorted(ds, key=lambda d: (d.line, d.code))) for p, ds in findings.items()})


def defined_for_hip(text: str) -> frozenset[str]:
    """The macros ``text`` defines where only HIP's compilers read it (``#if defined(__HIP_PLATFORM_AMD__)
    #define atomicAdd_block atomicAdd``): the project's own for hipcc, whatever CUDA calls them."""
    if "define" not in text or not any(m in text for m in HIP_COMPILER_MACROS):
        return frozenset()
    directives = directives_of(text, lex(text))
    spans = hip_compilers_only(directives)
    found = {_NAME.match(d.argument) for d in directives if d.keyword == "define" and _inside(spans, d.start)}
    return frozenset(m.group() for m in found if m is not None)


def _mentions_any(text: str, marks: Sequence[Mark]) -> bool:
    return any(m.name in text for m in marks)


def _place(path: str, text: str, at: int) -> str:
    line, _ = LineIndex.of(text).line_col(at)
    return f"{shown_path(path)}:{line}"


def _at(path: str, text: str, at: int, code: str, message: str, severity: Severity) -> Diagnostic:
    line, col = LineIndex.of(text).line_col(at)
    return Diagnostic(code, message, at, line, col, severity, message.split(" ", 1)[0].rstrip(":"), path)


@dataclass(frozen=True)
class _Branch:
    keyword: str  # if, ifdef, ifndef, elif, else
    argument: str
    node: Node | None  # the parsed condition of an #if/#elif
    hip_only: bool  # no compiler but HIP's takes it: its condition is false where HIP's macros are undefined


@dataclass(frozen=True)
class _Chain:
    """One ``#if ... #endif`` chain that hipcc may read: its branches in order."""

    start: int  # the offset of its #if
    branches: tuple[_Branch, ...]
    tells_hip_apart: bool  # some branch tests HIP's compiler, or only a HIP compiler reads the chain
    hip_context: bool  # only a HIP compiler reads the chain (it lies in an #ifdef __HIPCC__)

    def mentions(self, name: str) -> bool:
        return name in self.names()

    def names(self) -> frozenset[str]:
        return frozenset(n for b in self.branches for n in _NAME.findall(b.argument)) - _NOT_MACROS


def _chains_of(text: str) -> list[_Chain]:
    """The file's conditional chains, less those hipcc skips whatever is defined (``#ifndef __HIPCC__``)."""
    directives = directives_of(text, lex(text))
    telling = {start for start, _ in telling_hip_apart(directives)}
    telling |= {d.start for d in directives if d.keyword in ("ifdef", "ifndef") and d.argument.strip() in _HIP_TESTS}
    skipped = hipcc_skipped(directives)
    hip_only = hip_compilers_only(directives)
    out: list[_Chain] = []
    stack: list[tuple[int, list[_Branch], bool]] = []
    for d in directives:
        keyword = d.keyword
        if keyword in ("if", "ifdef", "ifndef"):
            stack.append((d.start, [_branch(d)], d.start in telling or _inside(hip_only, d.start)))
        elif keyword in ("elif", "else") and stack:
            start, branches, tells = stack[-1]
            branches.append(_branch(d))
            stack[-1] = (start, branches, tells or d.start in telling)
        elif keyword == "endif" and stack:
            start, branches, tells = stack.pop()
            if not _inside(skipped, start):
                out.append(_Chain(start, tuple(branches), tells, _inside(hip_only, start)))
    return out


_HIP_TESTS = HIP_COMPILER_MACROS | {_DEVICE_PASS}


def _branch(d: CondDirective) -> _Branch:
    argument = d.argument.strip()
    if d.keyword in ("ifdef", "ifndef"):
        return _Branch(d.keyword, argument, None, d.keyword == "ifdef" and argument in _HIP_TESTS)
    node = parse(argument) if d.keyword in ("if", "elif") else None
    return _Branch(d.keyword, argument, node, node is not None and _false_without_hip(node))


def _false_without_hip(node: Node) -> bool:
    """Is the condition false for every compiler that defines none of HIP's macros, whatever else is defined?"""
    value = evaluate(
        node,
        lambda name: 0 if name in _HIP_TESTS else None,
        lambda name: False if name in _HIP_TESTS else None,
    )
    return value == 0


def _inside(spans: Sequence[tuple[int, int]], at: int) -> bool:
    return any(start <= at and (at < end or end < 0) for start, end in spans)


# What defining a mark does to a chain hipcc reads: nothing; moves hipcc to another branch; moves it onto or off a
# branch the project wrote for HIP's compiler alone (the CUDA branch before its HIP one, an #error for nvcc as
# HIP's back end).
_NONE, _MOVES, _MOVES_HIP_BRANCH = 0, 1, 2


def _effect(chain: _Chain, mark: Mark, marks: Sequence[Mark]) -> int:
    """What ``mark`` defined as the header defines it does to the branch hipcc takes in ``chain``, for some setting
    of the names it does not know (the project's macros) and in some pass."""
    fixed = set(_HIPCC) | _NEVER | {_DEVICE_PASS} | {m.name for m in marks}
    unknown = sorted(chain.names() - fixed)
    enumerated, rest = unknown[:_ENUMERATED], frozenset(unknown[_ENUMERATED:])
    effect = _NONE
    for device in (False, True):
        value = mark.device if device else mark.host
        if value is None:
            continue  # not defined in this pass: hipcc reads the chain alike
        env = dict(_HIPCC)
        if device:
            env[_DEVICE_PASS] = 1
        for m in marks:
            other = m.device if device else m.host
            if other is not None and m.name != mark.name:
                env[m.name] = other
        for setting in _settings(enumerated):
            without = _taken(chain, env, rest, setting)
            with_mark = _taken(chain, {**env, mark.name: value}, rest, setting)
            if without is None or with_mark is None or without == with_mark:
                continue
            if chain.hip_context or _for_hip(chain, without) or _for_hip(chain, with_mark):
                return _MOVES_HIP_BRANCH
            effect = _MOVES
    return effect


def _for_hip(chain: _Chain, taken: int) -> bool:
    return taken < len(chain.branches) and chain.branches[taken].hip_only


def _settings(names: Sequence[str]) -> Iterator[dict[str, int | None]]:
    """Every defined (as 1) / undefined setting of ``names``."""
    for values in itertools.product((None, 1), repeat=len(names)):
        yield dict(zip(names, values, strict=True))


def _taken(
    chain: _Chain, env: Mapping[str, int], unknown: frozenset[str], setting: Mapping[str, int | None]
) -> int | None:
    """The index of the branch taken (len(branches): none), None where it depends on an unknown name."""

    def value_of(name: str) -> int | None:
        if name in unknown:
            return None
        if name in setting:
            return setting[name] or 0
        return env.get(name, 0)

    def defined(name: str) -> bool | None:
        if name in unknown:
            return None
        if name in setting:
            return setting[name] is not None
        return name in env

    for index, branch in enumerate(chain.branches):
        if branch.keyword == "else":
            return index
        if branch.keyword in ("ifdef", "ifndef"):
            known = defined(branch.argument)
            if known is None:
                return None
            if known == (branch.keyword == "ifdef"):
                return index
            continue
        if branch.node is None:
            return None
        value = evaluate(branch.node, value_of, defined)
        if value is None:
            return None
        if value:
            return index
    return len(chain.branches)
