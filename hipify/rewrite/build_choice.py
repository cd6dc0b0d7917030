"""Which CUDA build a file's version and architecture conditions are decided for, read from its text alone.

``rules/build_conditions.py`` decides a file's ``#if CUDART_VERSION >= 9000`` and ``#if __CUDA_ARCH__ < 800`` as
the newest build (``build_target``) under which no chain takes a branch HIP cannot compile that HIP would not take
as written. The project scan asks the same of every file before any is translated (with what the text tells of
what HIP lacks: inline PTX, names HIP lacks), so that the files compiled together are decided for one build, the
oldest any of them needs: the project then agrees with itself about which CUDA it is (one header taking the CUDA 9
warp-shuffle branch while another keeps the CUDA 8 one is two toolkits in one program).

Chains, branches and the two readings of a condition (as HIP's preprocessor reads it as written, and as a build
decides it) are here; what HIP lacks is the caller's question (``lacks``), asked once per body.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from ..lexing.condition_expr import Node, evaluate, names_used_for_value, parse
from ..model import Span
from .build_target import ARCH_MACROS, ARCHITECTURES, ASSUMED, CUDA_VERSIONS, NEWEST, VERSION_MACROS, Assumed, Build

_HEAD = re.compile(r"#\s*(if|elif|ifdef|ifndef|else|endif)\b")


class DirectiveLike(Protocol):
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def argument(self) -> str: ...


@dataclass
class Branch:
    directive: DirectiveLike
    keyword: str
    node: Node | None  # the condition (if/elif), parsed
    offset: int  # where the condition's text starts (spans of ``node`` are relative to it)
    body: Span = (0, 0)


@dataclass
class Chain:
    branches: list[Branch] = field(default_factory=list)


def read_chains(masked: str, directives: Iterable[DirectiveLike]) -> list[Chain]:
    """The file's ``#if`` chains, each with its branches' conditions and bodies (``masked``: comments and literals
    blanked)."""
    chains: list[Chain] = []
    stack: list[Chain] = []
    for d in directives:
        m = _HEAD.match(masked, d.start, d.end)
        if m is None:
            continue
        keyword = m.group(1)
        if keyword in ("if", "ifdef", "ifndef"):
            chain = Chain()
            chains.append(chain)
            stack.append(chain)
        elif not stack:
            continue
        chain = stack[-1]
        if chain.branches:
            last = chain.branches[-1]
            last.body = (last.directive.end, d.start)
        if keyword == "endif":
            stack.pop()
            continue
        node = parse(masked[m.end() : d.end]) if keyword in ("if", "elif") else None
        chain.branches.append(Branch(d, keyword, node, m.end()))
    return chains


def mentions(chain: Chain, about: frozenset[str]) -> bool:
    return any(b.node is not None and names_used_for_value(b.node) & about for b in chain.branches)


Env = tuple[Callable[[str], "int | None"], Callable[[str], "bool | None"]]


@dataclass(frozen=True)
class Reading:
    """What a file's conditions name besides the build: the decided macros, its numeric constants, and HIP's
    macros that a decided macro's definition test becomes (``defined(__CUDA_ARCH__)`` ->
    ``defined(__HIP_DEVICE_COMPILE__)``: True for one defined in the device pass only; ``renamed``: decided name ->
    that HIP name), so that a condition translated before reads the same as the one it came from."""

    names: frozenset[str]
    constants: Mapping[str, int]
    hip: Mapping[str, bool]
    renamed: Mapping[str, str]

    def decided(self, device: bool, build: Build = NEWEST) -> Env:
        def value_of(name: str) -> int | None:
            if name not in self.names:
                return self.constants.get(name)
            value = pass_value(build.assumed(name), device)
            return 0 if value is None else value

        def defined(name: str) -> bool | None:
            if name in self.names:
                return pass_value(build.assumed(name), device) is not None
            return self._hip_defined(name, device)

        return value_of, defined

    def today(self, device: bool) -> Env:
        """What HIP's preprocessor makes of the conditions as the rest of the translation writes them: a value use
        is 0 (undefined), a test of the definition is renamed to HIP's macro (``__HIP_DEVICE_COMPILE__``)."""

        def value_of(name: str) -> int | None:
            return 0 if name in self.names else self.constants.get(name)

        def defined(name: str) -> bool | None:
            if name not in self.names:
                return self._hip_defined(name, device)
            hip = self.renamed.get(name, "")
            return self._hip_defined(hip, device) if hip else False

        return value_of, defined

    def _hip_defined(self, name: str, device: bool) -> bool | None:
        device_only = self.hip.get(name)
        if device_only is None:
            return None
        return device if device_only else True


def hip_renames(hip_of: Callable[[str], str]) -> dict[str, str]:
    """Decided macro -> the HIP macro the table renames it to (``__CUDA_ARCH__`` -> ``__HIP_DEVICE_COMPILE__``)."""
    return {name: hip for name in ASSUMED if (hip := hip_of(name))}


def hip_macros(renamed: Mapping[str, str]) -> dict[str, bool]:
    """HIP macro -> defined in the device pass only (see :class:`Reading`)."""
    return {hip: ASSUMED[name].host is None for name, hip in renamed.items()}


def pass_value(assumed: Assumed, device: bool) -> int | None:
    return assumed.device if device else assumed.host


def condition(branch: Branch, env: Env) -> int | None:
    value_of, defined = env
    if branch.keyword == "else":
        return 1
    if branch.keyword in ("ifdef", "ifndef"):
        words = branch.directive.argument.split()
        known = defined(words[0]) if words else None
        return None if known is None else int(known == (branch.keyword == "ifdef"))
    if branch.node is None:
        return None
    try:
        return evaluate(branch.node, value_of, defined)
    except (ValueError, OverflowError):
        return None


def possible(chain: Chain, env: Env) -> list[bool]:
    """Per branch: may this build take it?"""
    out = []
    taken = False
    for branch in chain.branches:
        value = condition(branch, env)
        out.append(not taken and value != 0)
        taken = taken or (value is not None and value != 0)
    return out


Lacks = Callable[[Span], bool]  # does this body use what HIP cannot compile?
# Would the first body (newly taken) be slower under HIP than the second (taken as written; None: no branch was)?
Slower = Callable[[Span, "Span | None"], bool]

_SYNC_WARP = re.compile(r"\b(__shfl(?:_up|_down|_xor)?|__ballot|__any|__all)_sync\b")


_PLAIN_WARP = re.compile(r"\b(__shfl(?:_up|_down|_xor)?|__ballot|__any|__all)\s*\(")
_DEFINED = re.compile(r"#\s*define\s+([A-Za-z_]\w*)")


def warp_forms(masked: str, span: Span) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """Of the code of ``span``: the plain names of the ``*_sync`` warp functions it calls, the plain warp
    functions it calls, and the macros it ``#define``s."""
    return (
        frozenset(m.group(1) for m in _SYNC_WARP.finditer(masked, *span)),
        frozenset(m.group(1) for m in _PLAIN_WARP.finditer(masked, *span)),
        frozenset(m.group(1) for m in _DEFINED.finditer(masked, *span)),
    )


def _slower(new: tuple[frozenset[str], ...], old: tuple[frozenset[str], ...] | None) -> bool:
    sync, _, defines = new
    return bool(sync & ((old[1] if old is not None else frozenset()) | defines))


def plain_warp_functions_preferred(masked: str) -> Slower:
    """A branch for CUDA 9+ whose warp shuffles and votes are the ``*_sync`` forms is slower under HIP than the
    branch it replaces with the plain forms: HIP's ``*_sync`` functions check the mask lane by lane before the
    plain operation (a wavefront runs in lockstep, which is what the plain forms assume), and a file full of
    them compiles several times slower. So it is no reason for a newer build where the older one reads the plain
    forms: in the branch taken as written, or through the new branch's own ``#define __shfl_up(v, d)
    __shfl_up_sync(...)``, whose uses are the plain names."""

    def slower(new: Span, old: Span | None) -> bool:
        return _slower(warp_forms(masked, new), warp_forms(masked, old) if old is not None else None)

    return slower


@dataclass(frozen=True)
class BranchFacts:
    """One branch of a chain as the project model keeps it (no text): its directive, whether its code uses what
    HIP lacks by the text, and what :func:`warp_forms` says of it."""

    keyword: str
    argument: str  # the condition (if/elif), the macro (ifdef/ifndef)
    lacks: bool
    sync: frozenset[str] = frozenset()
    plain: frozenset[str] = frozenset()
    defines: frozenset[str] = frozenset()


@dataclass(frozen=True)
class BuildConditions:
    """A file's conditions on the CUDA build, kept by its scan: the project model decides the newest build each
    file allows knowing what the whole project guards (a macro a file defines that enables code HIP lacks in
    another file: ``lacking_guards``)."""

    names: frozenset[str]
    constants: tuple[tuple[str, int], ...]
    renamed: tuple[tuple[str, str], ...]
    chains: tuple[tuple[BranchFacts, ...], ...]

    def newest(self, guards: frozenset[str] = frozenset()) -> Build:
        """The newest build none of the chains takes a branch of under which HIP cannot compile (or compiles
        slower), a branch defining one of ``guards`` counting as one HIP cannot compile."""
        chains: list[Chain] = []
        facts: dict[Span, BranchFacts] = {}
        for n, chain in enumerate(self.chains):
            read = Chain()
            for m, branch in enumerate(chain):
                node = parse(branch.argument) if branch.keyword in ("if", "elif") else None
                read.branches.append(Branch(_Said(0, 0, branch.argument), branch.keyword, node, 0, (n, m)))
                facts[(n, m)] = branch
            chains.append(read)

        def lacks(span: Span) -> bool:
            branch = facts[span]
            return branch.lacks or not branch.defines.isdisjoint(guards)

        def slower(new: Span, old: Span | None) -> bool:
            return _slower(_forms(facts[new]), _forms(facts[old]) if old is not None else None)

        renamed = dict(self.renamed)
        reading = Reading(self.names, dict(self.constants), hip_macros(renamed), renamed)
        return choose_build(chains, reading, lacks, None, slower)[0]


@dataclass(frozen=True)
class _Said:
    """A directive known by its argument alone."""

    start: int
    end: int
    argument: str


def _forms(branch: BranchFacts) -> tuple[frozenset[str], ...]:
    return (branch.sync, branch.plain, branch.defines)


def build_conditions(
    masked: str,
    directives: Iterable[DirectiveLike],
    names: frozenset[str],
    constants: Mapping[str, int],
    renamed: Mapping[str, str],
    lacks: Lacks,
) -> BuildConditions | None:
    """The facts of the chains of ``masked`` that test one of ``names`` (None: none does); ``constants``: the
    file's numeric macros, which its conditions may compare with."""
    deciding = [c for c in read_chains(masked, directives) if mentions(c, names)]
    if not deciding:
        return None
    chains = tuple(
        tuple(
            BranchFacts(b.keyword, b.directive.argument, lacks(b.body), *warp_forms(masked, b.body))
            for b in chain.branches
        )
        for chain in deciding
    )
    return BuildConditions(names, tuple(sorted(constants.items())), tuple(sorted(renamed.items())), chains)


def _never_slower(new: Span, old: Span | None) -> bool:
    return False


def enables_what_hip_lacks(
    chain: Chain, reading: Reading, build: Build, lacks: Lacks, slower: Slower = _never_slower
) -> bool:
    """Would ``build`` take a branch of ``chain`` that HIP would not take as the chain is written, and whose code
    HIP cannot compile, or compiles to slower code than the branch it replaces?"""
    for device in (True, False):
        before = possible(chain, reading.today(device))
        after = possible(chain, reading.decided(device, build))
        replaced = next(
            (b.body for b, was, now in zip(chain.branches, before, after, strict=True) if was and not now), None
        )
        for branch, was, now in zip(chain.branches, before, after, strict=True):
            if now and not was and (lacks(branch.body) or slower(branch.body, replaced)):
                return True
    return False


def takes_what_hip_lacks(chain: Chain, reading: Reading, build: Build, lacks: Lacks) -> bool:
    """Does ``build`` take a branch of ``chain`` whose code HIP cannot compile (in either pass), taken as written
    or not?"""
    for device in (True, False):
        after = possible(chain, reading.decided(device, build))
        if any(now and lacks(branch.body) for branch, now in zip(chain.branches, after, strict=True)):
            return True
    return False


def choose_build(
    deciding: list[Chain], reading: Reading, lacks: Lacks, limit: Build | None = None, slower: Slower = _never_slower
) -> tuple[Build, list[Chain]]:
    """The newest build (no newer than ``limit``: the project's) under which no chain takes a branch HIP cannot
    compile (or compiles slower, ``slower``) that HIP would not take anyway: the architecture first (tried newest
    first, the CUDA version the newest), then the CUDA version. A chain that takes such a branch under every build
    is left as written (returned, second)."""
    if not deciding:
        return limit or NEWEST, []
    answers: dict[Span, bool] = {}

    def lacks_once(span: Span) -> bool:
        found = answers.get(span)
        if found is None:
            found = answers[span] = lacks(span)
        return found

    def bad(build: Build, about: frozenset[str]) -> list[Chain]:
        return [
            c for c in deciding if mentions(c, about) and enables_what_hip_lacks(c, reading, build, lacks_once, slower)
        ]

    names = reading.names
    top = limit or NEWEST
    archs = [a for a in ARCHITECTURES if a <= top.arch] or [ARCHITECTURES[-1]]
    versions = [v for v in CUDA_VERSIONS if v <= top.version] or [CUDA_VERSIONS[-1]]
    arch = _newest([Build(top.version, a) for a in archs], lambda b: bad(b, ARCH_MACROS & names)).arch
    build = _newest([Build(v, arch) for v in versions], lambda b: bad(b, VERSION_MACROS & names))
    return build, [c for c in deciding if mentions(c, names) and enables_what_hip_lacks(c, reading, build, lacks_once)]


def _newest(candidates: list[Build], bad: Callable[[Build], list[Chain]]) -> Build:
    """The first candidate with no bad chain; else the one with the fewest (the newest of those)."""
    fewest: tuple[int, Build] | None = None
    for build in candidates:
        count = len(bad(build))
        if count == 0:
            return build
        if fewest is None or count < fewest[0]:
            fewest = (count, build)
    return fewest[1] if fewest is not None else candidates[0]


def older(a: Build, b: Build) -> Build:
    """The build no newer than either in version or in architecture."""
    return Build(min(a.version, b.version), min(a.arch, b.arch))
