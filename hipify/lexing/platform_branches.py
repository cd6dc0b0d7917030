"""Where a line of a file sits among its conditions: what the translated build must define for it to be read.

A project that builds for several platforms picks one with macros of its own (``GGML_USE_HIP``, ``USE_ROCM``,
``BUILD_HIP``) that its build system defines; its ROCm branch may define CUDA names for its own HIP build
(``#define __trap() abort()``, ``#define CUDART_NAN_F ...``). The translated build is the CUDA build, translated and
compiled by hipcc: it defines hipcc's own macros and none of the project's platform options, so a definition only
such an option reaches is no definition of the project's there (``project/graph`` finds the options; this module
reads one file's conditions for it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..model import Span
from .compiler_branches import CUDA_COMPILER_MACROS as _CUDA_COMPILERS_OWN
from .condition_expr import macro_decider
from .conditionals import CondDirective, Conditional, inactive_spans

# Macros hipcc defines for AMD GPUs in both passes, and the CUDA compiler's, which the translation renames to them.
HIPCC_DEFINED = frozenset(("__HIPCC__", "__HIP__", "__HIP_PLATFORM_AMD__", "__CUDACC__"))
# Macros hipcc for AMD GPUs never defines: HIP's NVIDIA platform's.
HIPCC_UNDEFINED = frozenset(("__HIP_PLATFORM_NVIDIA__", "__HIP_PLATFORM_NVCC__"))
_NAME = re.compile(r"[A-Za-z_]\w*")
_NOT_MACROS = frozenset(("defined", "true", "false", "__has_include", "__has_include_next"))


@dataclass(frozen=True)
class Guard:
    """The conditions around one offset of a file."""

    requires: frozenset[str] = frozenset()  # macros each of which must be defined for the offset to be read
    chain: int = -1  # the innermost conditional chain holding it, numbered in file order (-1: none)
    branch: int = 0  # which branch of that chain (0: its #if)
    # The macros the innermost branch's own condition needs defined (none for an #else)
    own: frozenset[str] = frozenset()


NO_GUARD = Guard()


def condition_macros(directives: Sequence[CondDirective]) -> frozenset[str]:
    """The macro names a file's conditions test, but hipcc's own."""
    names: set[str] = set()
    for d in directives:
        if d.keyword in ("if", "elif", "ifdef", "ifndef"):
            names.update(_NAME.findall(d.argument))
    return frozenset(names - _NOT_MACROS - HIPCC_DEFINED - HIPCC_UNDEFINED)


def hipcc_skipped(directives: Sequence[CondDirective]) -> list[Span]:
    """Spans hipcc skips whatever else is defined: ``#ifndef __HIPCC__``, ``#if !defined(__HIP_PLATFORM_AMD__)``,
    ``#ifdef __HIP_PLATFORM_NVIDIA__`` (an end of -1 runs to the end of the file)."""
    if not any(m in d.argument for d in directives for m in HIPCC_DEFINED | HIPCC_UNDEFINED):
        return []
    return inactive_spans(directives, {}, _hipcc_decides)


# Macros only HIP's compilers define: a CUDA compiler reads none of them.
HIP_COMPILER_MACROS = frozenset(("__HIPCC__", "__HIP__", "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__"))


# What CUDA's compiler defines about itself (``__NVCC__``, ``__CUDA_ARCH__``), which the translation renames to
# HIP's or decides for the build; and the names a file tests to tell HIP's compiler apart.
NVCC_OWN_MACROS = _CUDA_COMPILERS_OWN | frozenset((
    "__CUDA_ARCH__", "__CUDACC_VER_MAJOR__", "__CUDACC_VER_MINOR__", "__CUDACC_VER_BUILD__", "__CUDACC_VER__",
    "__CUDACC_RDC__", "__CUDACC_RELAXED_CONSTEXPR__", "__CUDACC_EXTENDED_LAMBDA__", "__CUDA_ARCH_LIST__",
))  # fmt: skip
_TELLS_HIP = re.compile(r"\b(?:__HIPCC__|__HIP__|__HIP_PLATFORM_AMD__|__HIP_PLATFORM_HCC__|__HIP_DEVICE_COMPILE__)\b")


def telling_hip_apart(directives: Sequence[Conditional]) -> list[Span]:
    """The conditions that test HIP's compiler beside CUDA's (``#if defined(__NVCC__) && defined(__HIPCC__)``,
    ``#if defined(__CUDACC__) || defined(__HIPCC__)``), written for hipcc as they are (a library with a HIP port of
    its own, Eigen's way): a test of CUDA's compiler there means CUDA's compiler, and renamed to HIP's the condition
    only says the other half again, or becomes an ``#error`` for every hipcc compile. A condition of its own
    (``#if defined(__CUDACC__)`` before ``#elif defined(__HIPCC__)``) is CUDA's branch, which the translated code may
    need (the CUDA-side macros it defines), and is translated."""
    return [
        (d.start, d.end)
        for d in directives
        if d.keyword in ("if", "elif") and _TELLS_HIP.search(d.argument) is not None
    ]


def hip_compilers_only(directives: Sequence[CondDirective]) -> list[Span]:
    """Spans only a HIP compiler reads, as the project wrote them: ``#ifdef __HIP_PLATFORM_AMD__``,
    ``#if defined(__HIPCC__)`` (an end of -1 runs to the end of the file). What a file does there, it does for
    whichever build hipcc compiles, the translated one included."""
    if not any(m in d.argument for d in directives for m in HIP_COMPILER_MACROS):
        return []
    return inactive_spans(directives, {}, _cuda_compiler_decides)


# A CUDA compiler's view of HIP's own macros: none of them is defined.
_cuda_compiler_decides = macro_decider(dict.fromkeys(HIP_COMPILER_MACROS))


def guards_at(directives: Sequence[CondDirective], offsets: Sequence[int], macros: frozenset[str]) -> list[Guard]:
    """The :class:`Guard` of each of ``offsets``, ``requires`` and ``own`` limited to ``macros``."""
    if not offsets:
        return []
    without = {m: inactive_spans(directives, {}, undefined_decides(m)) for m in sorted(macros)}
    branches = _branches(directives)
    out = []
    for at in offsets:
        requires = frozenset(m for m, spans in without.items() if _inside(spans, at))
        holding = [b for b in branches if b.start <= at < b.end]
        if not holding:
            out.append(Guard(requires))
            continue
        inner = max(holding, key=lambda b: b.start)
        own = frozenset(m for m in macros if inner.keyword != "else" and _needs(inner.keyword, inner.argument, m))
        out.append(Guard(requires, inner.chain, inner.index, own))
    return out


def branch_macros(directives: Sequence[CondDirective], chains: frozenset[int], macros: frozenset[str]) -> list[Guard]:
    """For each branch of ``chains`` (numbered as :class:`Guard` numbers them) whose own condition needs some of
    ``macros`` defined: a :class:`Guard` with that chain, branch and those macros (``own``)."""
    out = []
    for b in _branches(directives):
        if b.chain in chains and b.keyword != "else":
            own = frozenset(m for m in macros if _needs(b.keyword, b.argument, m))
            if own:
                out.append(Guard(own, b.chain, b.index, own))
    return sorted(out, key=lambda g: (g.chain, g.branch))


@dataclass(frozen=True)
class _Branch:
    start: int  # end of its directive line
    end: int  # start of the chain's next directive (the file's end when unterminated)
    chain: int
    index: int
    keyword: str
    argument: str


@dataclass
class _Open:
    """A chain being read: its number, its current branch's index, start, keyword and condition."""

    chain: int
    index: int
    start: int
    keyword: str
    argument: str

    def closed_at(self, end: int) -> _Branch:
        return _Branch(self.start, end, self.chain, self.index, self.keyword, self.argument)


def _branches(directives: Sequence[CondDirective]) -> list[_Branch]:
    out: list[_Branch] = []
    stack: list[_Open] = []
    chains = 0
    for d in directives:
        kw = d.keyword
        if kw in ("if", "ifdef", "ifndef"):
            stack.append(_Open(chains, 0, d.end, kw, d.argument))
            chains += 1
        elif kw in ("elif", "else", "elifdef", "elifndef", "endif") and stack:
            out.append(stack[-1].closed_at(d.start))
            if kw == "endif":
                stack.pop()
            else:
                stack[-1] = _Open(stack[-1].chain, stack[-1].index + 1, d.end, kw, d.argument)
    out += [frame.closed_at(1 << 62) for frame in stack]
    return out


def _inside(spans: Sequence[Span], at: int) -> bool:
    return any(start <= at and (at < end or end < 0) for start, end in spans)


def _needs(keyword: str, argument: str, macro: str) -> bool:
    """Is a branch of this directive certainly not taken when ``macro`` is undefined?"""
    return undefined_decides(macro)("if" if keyword == "elif" else keyword, argument) is False


def undefined_decides(macro: str) -> Callable[[str, str], bool | None]:
    """Decide conditions with ``macro`` undefined (every other name unknown)."""
    return macro_decider({macro: None})


def only_defined(macro: str | None, macros: frozenset[str]) -> Callable[[str, str], bool | None]:
    """Decide conditions with ``macro`` defined (as 1) and the rest of ``macros`` undefined (others unknown)."""
    return macro_decider({name: 1 if name == macro else None for name in macros})


_hipcc_decides = macro_decider({**dict.fromkeys(HIPCC_UNDEFINED), **dict.fromkeys(HIPCC_DEFINED, 1)})
