"""Version and architecture conditions decided as a current CUDA build decides them (HPY019).

``#if __CUDACC_VER_MAJOR__ < 12``, ``#if CUDART_VERSION >= 11000``, ``#if __CUDA_ARCH__ < 800``: under HIP the
macros are undefined, so the preprocessor counts them as 0 and compiles what was written for old CUDA or old GPUs
(a second ``__ldcs`` beside HIP's, an ``atomicAdd(double*)`` polyfill), and skips what newer GPUs have (FP16
arithmetic behind ``__CUDA_ARCH__ >= 600``). Each such condition is evaluated for the build of
``rewrite.build_target`` in both of its passes, as nvcc compiles a file twice: where both passes agree the condition
becomes ``1`` or ``0``, where they differ ``defined(__HIP_DEVICE_COMPILE__)`` (or its negation), HIP's device pass.
A condition that also depends on other macros keeps them: each of its operands of ``&&``, ``||`` and ``!`` that the
build decides is replaced, the rest stays.

The decision is not taken where it would compile a branch that HIP cannot: a branch taken now that was not taken
before (in either pass), whose code uses inline PTX, a CUDA API without a HIP equivalent or whose HIP equivalent
takes another declaration (HPY112, HPY113: a branch for CUDA 13 calls it as CUDA 13 declares it), or defines a macro that
guards such code elsewhere in the file (``#define CP_ASYNC_ENABLED`` for ``#ifdef CP_ASYNC_ENABLED asm(...)``).
Such a chain is left as written, reported as before (HPY110). A value used in code (``printf("%d",
__CUDA_ARCH__)`` in a device function) becomes the build's number.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ...knowledge.table import Row
from ...lexing.condition_expr import Node, evaluate, names_used_for_value, parse
from ...lexing.conditionals import Conditional, bodies_after
from ...lexing.facts import Directive
from ...lexing.text_facts import whole_word
from ...lexing.tiers import INLINE_ASM, numeric_constants
from ...model import Diagnostic, Edit, Origin, Severity, Span
from ..build_target import ARCH_MACROS, ARCHITECTURES, ASSUMED, CUDA_VERSIONS, NEWEST, VERSION_MACROS, Assumed, Build
from ..context import Context
from ..index import CUDA_LIKE
from ..registry import Finding, register
from ..unused_headers import unused_header

_HEAD = re.compile(r"#\s*(if|elif|ifdef|ifndef|else|endif)\b")
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
_NVIDIA_INTERNAL = re.compile(r"__nv_\w+\Z")
DEVICE_PASS = "__HIP_DEVICE_COMPILE__"


@dataclass(frozen=True)
class ConditionPlan:
    findings: tuple[Finding, ...] = ()
    handled: frozenset[int] = frozenset()  # starts of the macro uses this rule decided (the renames rule skips them)
    # The bodies of the branches whose being taken the decisions change (at or after a rewritten condition of their
    # chain): whether code there is compiled, a rule asks of neither this translation's facts nor the next one's,
    # which read other conditions (an #if decided 0, the #else of one decided 1, a device pass the parse has not).
    rewritten: tuple[Span, ...] = ()

    def rewrites(self, offset: int) -> bool:
        return any(start <= offset and (offset < end or end < 0) for start, end in self.rewritten)


@dataclass
class _Branch:
    directive: Directive
    keyword: str
    node: Node | None  # the condition (if/elif), parsed
    offset: int  # where the condition's text starts (spans of ``node`` are relative to it)
    body: Span = (0, 0)


@dataclass
class _Chain:
    branches: list[_Branch] = field(default_factory=list)


def condition_plan(ctx: Context) -> ConditionPlan:
    return ctx.memo(_plan)


@register("build_conditions")
def build_conditions(ctx: Context) -> Iterator[Finding]:
    yield from condition_plan(ctx).findings


def _decided_names(ctx: Context) -> frozenset[str]:
    return frozenset(n for n in ASSUMED if n in ctx.index.undefined_macros and n in ctx.used_rows)


def _plan(ctx: Context) -> ConditionPlan:
    names = _decided_names(ctx)
    if not names:
        return ConditionPlan()
    findings: list[Finding] = []
    handled: set[int] = set()
    chains = _chains(ctx)
    deciding = [
        c for c in chains if any(b.node is not None and names_used_for_value(b.node) & names for b in c.branches)
    ]
    build, unsatisfiable = _choose_build(ctx, deciding, chains, names)
    for chain in deciding:
        if any(chain is c for c in unsatisfiable):
            continue  # every build would compile a branch HIP lacks: left as written (HPY110)
        for branch in chain.branches:
            if branch.node is None or not names_used_for_value(branch.node) & names:
                continue
            if not ctx.allowed(branch.directive.start, branch.directive.region):
                continue
            findings.extend(_decide(ctx, branch, names, handled, build))
    for ident, row in ctx.uses_of(names):
        if ident.user_declared or not ctx.allowed(ident.start, ident.region):
            continue
        if ident.directive and (ident.directive != "define" or ident.prev_token == "define"):
            continue  # conditions are decided above; a macro's body (``NO_DEVICE_CODE``) is code where it is used
        value = build.assumed(row.cuda).device
        if value is None:
            continue
        handled.add(ident.start)
        findings.append(Edit(ident.start, ident.end, str(value), "HPY019", Origin.TEXT, subject=row.cuda))
        findings.append(Diagnostic("HPY019", f"{row.cuda} used for its value: {value}, as {build.describe()} has it",
                                   ident.start, severity=Severity.INFO, subject=row.cuda))  # fmt: skip
    edits = [f.start for f in findings if isinstance(f, Edit) and f.code == "HPY019"]
    rewritten = _rewritten(ctx, edits) if edits else ()
    return ConditionPlan(tuple(findings), frozenset(handled), rewritten)


def _rewritten(ctx: Context, edits: list[int]) -> tuple[Span, ...]:
    def decided(directive: Conditional) -> bool:
        return any(directive.start <= at < directive.end for at in edits)

    return tuple(bodies_after(ctx.facts.directives, decided))


def _choose_build(
    ctx: Context, deciding: list[_Chain], chains: list[_Chain], names: frozenset[str]
) -> tuple[Build, list[_Chain]]:
    """The newest build under which no chain takes a branch HIP cannot compile that HIP would not take anyway: the
    architecture first (tried newest first, the CUDA version the newest), then the CUDA version. A chain that takes
    such a branch under every build is left as written (returned, second)."""
    if not deciding:
        return NEWEST, []
    lacking: dict[tuple[int, int], bool] = {}  # _lacks per body, asked once

    def bad(build: Build, about: frozenset[str]) -> list[_Chain]:
        return [
            c
            for c in deciding
            if _mentions(c, about) and _enables_what_hip_lacks(ctx, c, chains, names, build, lacking)
        ]

    arch = _newest([Build(NEWEST.version, a) for a in ARCHITECTURES], lambda b: bad(b, ARCH_MACROS & names)).arch
    build = _newest([Build(v, arch) for v in CUDA_VERSIONS], lambda b: bad(b, VERSION_MACROS & names))
    return build, bad(build, names)


def _newest(candidates: list[Build], bad: Callable[[Build], list[_Chain]]) -> Build:
    """The first candidate with no bad chain; else the one with the fewest (the newest of those)."""
    fewest: tuple[int, Build] | None = None
    for build in candidates:
        count = len(bad(build))
        if count == 0:
            return build
        if fewest is None or count < fewest[0]:
            fewest = (count, build)
    return fewest[1] if fewest is not None else candidates[0]


def _mentions(chain: _Chain, about: frozenset[str]) -> bool:
    return any(b.node is not None and names_used_for_value(b.node) & about for b in chain.branches)


def _chains(ctx: Context) -> list[_Chain]:
    """The file's ``#if`` chains, each with its branches' conditions and bodies."""
    masked = ctx.masked
    chains: list[_Chain] = []
    stack: list[_Chain] = []
    for d in ctx.facts.directives:
        m = _HEAD.match(masked, d.start, d.end)
        if m is None:
            continue
        keyword = m.group(1)
        if keyword in ("if", "ifdef", "ifndef"):
            chain = _Chain()
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
        chain.branches.append(_Branch(d, keyword, node, m.end()))
    return chains


# --- which branches a build takes ---------------------------------------------------------------------------------

Env = tuple[Callable[[str], "int | None"], Callable[[str], "bool | None"]]


def _decided_env(ctx: Context, names: frozenset[str], device: bool, build: Build = NEWEST) -> Env:
    hip = _hip_macros(ctx, names)
    constants = ctx.memo(_file_constants)

    def value_of(name: str) -> int | None:
        if name not in names:
            return constants.get(name)
        value = _pass_value(build.assumed(name), device)
        return 0 if value is None else value

    def defined(name: str) -> bool | None:
        if name in names:
            return _pass_value(build.assumed(name), device) is not None
        return _hip_defined(hip, name, device)

    return value_of, defined


def _today_env(ctx: Context, names: frozenset[str], device: bool) -> Env:
    """What HIP's preprocessor makes of the conditions as the rest of the translation writes them: a value use is 0
    (undefined), a test of the definition is renamed to HIP's macro (``__HIP_DEVICE_COMPILE__``: the device pass)."""
    hip = _hip_macros(ctx, names)
    constants = ctx.memo(_file_constants)

    def value_of(name: str) -> int | None:
        return 0 if name in names else constants.get(name)

    def defined(name: str) -> bool | None:
        if name not in names:
            return _hip_defined(hip, name, device)
        row = ctx.table.lookup(name)
        return _hip_defined(hip, row.hip, device) if row is not None and row.hip else False

    return value_of, defined


def _file_constants(ctx: Context) -> dict[str, int]:
    """Object-like macros defined once as a number (``#define CC_PASCAL 600``), in this file or in the headers it
    includes (``ProjectFacts.build_constants``), as conditions compare the architecture with them
    (``__CUDA_ARCH__ >= CC_PASCAL``)."""
    own = numeric_constants(ctx.facts.directives)
    return {**dict(ctx.source.project.build_constants), **own}


def _hip_macros(ctx: Context, names: frozenset[str]) -> dict[str, bool]:
    """HIP's macros that the decided ones' definition tests become (``defined(__CUDA_ARCH__)`` ->
    ``defined(__HIP_DEVICE_COMPILE__)``): True for one defined in the device pass only. A condition translated
    before reads the same as the one it came from, so a second translation decides as the first."""
    return ctx.memo(_hip_macro_map) if names else {}


def _hip_macro_map(ctx: Context) -> dict[str, bool]:
    out: dict[str, bool] = {}
    for name, assumed in ASSUMED.items():
        row = ctx.table.lookup(name)
        if row is not None and row.hip:
            out[row.hip] = assumed.host is None
    return out


def _hip_defined(hip: dict[str, bool], name: str, device: bool) -> bool | None:
    device_only = hip.get(name)
    if device_only is None:
        return None
    return device if device_only else True


def _pass_value(assumed: Assumed, device: bool) -> int | None:
    return assumed.device if device else assumed.host


def _condition(branch: _Branch, env: Env) -> int | None:
    value_of, defined = env
    if branch.keyword == "else":
        return 1
    if branch.keyword in ("ifdef", "ifndef"):
        known = defined(branch.directive.argument.split()[0]) if branch.directive.argument.split() else None
        return None if known is None else int(known == (branch.keyword == "ifdef"))
    if branch.node is None:
        return None
    try:
        return evaluate(branch.node, value_of, defined)
    except (ValueError, OverflowError):
        return None


def _possible(chain: _Chain, env: Env) -> list[bool]:
    """Per branch: may this build take it?"""
    out = []
    taken = False
    for branch in chain.branches:
        value = _condition(branch, env)
        out.append(not taken and value != 0)
        taken = taken or (value is not None and value != 0)
    return out


def _enables_what_hip_lacks(
    ctx: Context,
    chain: _Chain,
    chains: list[_Chain],
    names: frozenset[str],
    build: Build = NEWEST,
    lacking: dict[Span, bool] | None = None,
) -> bool:
    """Would ``build`` take a branch of ``chain`` that HIP would not take as the chain is written, and whose code
    HIP cannot compile (``lacking``: answers kept per body)?"""
    lacking = {} if lacking is None else lacking
    for device in (True, False):
        before = _possible(chain, _today_env(ctx, names, device))
        after = _possible(chain, _decided_env(ctx, names, device, build))
        for branch, was, now in zip(chain.branches, before, after, strict=True):
            if not now or was:
                continue
            lacks = lacking.get(branch.body)
            if lacks is None:
                lacks = lacking[branch.body] = _lacks(ctx, branch.body, names, chains)
            if lacks:
                return True
    return False


# --- what HIP lacks -----------------------------------------------------------------------------------------------


def _takes_older_cuda(ctx: Context, row: Row) -> bool:
    """Does the row's target take another declaration than CUDA 13's (not where a transform picks by argument count,
    nor where it takes CUDA 13's and its same-named function an older one's: ROCm 7's hipMemAdvise_v2, 'newer')?"""
    if row.transform is not None and row.transform.kind == "by_arity":
        return False
    return (row.roc_signature if ctx.decide(row).roc else row.hip_signature) != "newer"


def _lacks(ctx: Context, span: Span, names: frozenset[str], chains: list[_Chain], follow: bool = True) -> bool:
    """Does the code of ``span`` use what HIP lacks (inline PTX, a CUDA name without a HIP equivalent), directly or,
    with ``follow``, through a macro it defines that guards such code elsewhere in the file?"""
    start, end = span
    masked = ctx.masked
    if INLINE_ASM.search(masked, start, end):
        return True
    resolved = ctx.resolved
    starts = ctx.memo(_resolved_starts)
    for ident, row in resolved[bisect.bisect_left(starts, start) : bisect.bisect_left(starts, end)]:
        if ident.user_declared or row.cuda in names or row.cuda in ctx.compat_names:
            continue
        if row.transform is not None and row.transform.kind == "remove":
            continue  # deleted by the translation (CUBLASAPI): nothing HIP lacks
        if row.kind != "namespace" and not ctx.decide(row).target:
            return True
        if row.cuda in ctx.index.signature_findings and _takes_older_cuda(ctx, row):
            return True  # HIP takes another declaration (cudaMemAdvise as CUDA 12 declared it): written for CUDA 13?
    own = frozenset(ctx.source.project.project_names) | frozenset(ctx.options.project_names)
    # a header's name is no code (cuda_runtime in <cuda_runtime.h>): the includes are judged below, by the table
    header_names = [inc.name for inc in ctx.facts.includes if start <= inc.start < end]
    for m in _WORD.finditer(masked, start, end):
        word = m.group()
        if word in ctx.table or word in own or word in ctx.compat_names:
            continue
        if any(s <= m.start() < e for s, e in header_names):
            continue
        if _NVIDIA_INTERNAL.match(word) or CUDA_LIKE.match(word):
            return True
    for inc in ctx.facts.includes:
        if start <= inc.start < end:
            header = ctx.table.lookup(inc.header)
            # (one nothing uses becomes a comment: no code, as the next translation reads it)
            lacking = header is not None and header.kind == "header" and not ctx.decide(header).target
            if lacking and header is not None and not unused_header(ctx, inc, header):
                return True
    if any(start <= d.start < end and d.keyword == "error" for d in ctx.facts.directives):
        return True  # the code's own stop for a build it was not written for
    if not follow:
        return False
    defined_here = {
        d.argument.split()[0].split("(")[0]
        for d in ctx.facts.directives
        if start <= d.start < end and d.keyword == "define" and d.argument.split()
    }
    if defined_here & frozenset(ctx.source.project.lacking_guards):
        return True  # it enables code HIP lacks in another file of the project (an op file's PTX fast path)
    for macro in defined_here:
        pattern = re.compile(whole_word(macro))
        for other in chains:
            for branch in other.branches:
                tests = branch.keyword in ("ifdef", "ifndef", "if", "elif") and pattern.search(
                    branch.directive.argument
                )
                if tests and _lacks(ctx, branch.body, names, chains, follow=False):
                    return True
    return False


def _resolved_starts(ctx: Context) -> list[int]:
    return [ident.start for ident, _ in ctx.resolved]


# --- the edits ----------------------------------------------------------------------------------------------------


def _decide(ctx: Context, branch: _Branch, names: frozenset[str], handled: set[int], build: Build) -> Iterator[Finding]:
    node = branch.node
    assert node is not None
    offset = branch.offset
    replaced: list[tuple[Node, str]] = []
    _replacements(ctx, node, names, replaced, build)
    if not replaced:
        return
    text = ctx.text
    for part, form in replaced:
        start, end = offset + part.span[0], offset + part.span[1]
        handled.update(i.start for i, _ in ctx.uses_of(names) if start <= i.start < end)
        yield Edit(start, end, form, "HPY019", Origin.TEXT, subject=_subject(part, names))
        yield Diagnostic(
            "HPY019",
            f"'{' '.join(text[start:end].split())}' decided as {build.describe()} decides it: {form}",
            start,
            severity=Severity.INFO,
            subject=_subject(part, names),
        )


def _subject(node: Node, names: frozenset[str]) -> str:
    return min(names_used_for_value(node) & names)


def _replacements(ctx: Context, node: Node, names: frozenset[str], out: list[tuple[Node, str]], build: Build) -> None:
    """The largest parts of ``node`` the build decides (the whole, else operands of ``&&``, ``||``, ``!`` and
    parentheses), each with what it becomes."""
    if names_used_for_value(node) & names:
        form = _form(ctx, node, names, build)
        if form is not None:
            out.append((node, form))
            return
    if node.kind == "group" or (node.kind == "unary" and node.value == "!") or node.value in ("&&", "||"):
        for child in node.children:
            _replacements(ctx, child, names, out, build)


def _form(ctx: Context, node: Node, names: frozenset[str], build: Build) -> str | None:
    values = []
    for device in (True, False):
        value_of, defined = _decided_env(ctx, names, device, build)
        try:
            value = evaluate(node, value_of, defined)
        except (ValueError, OverflowError):
            return None
        if value is None:
            return None
        values.append(bool(value))
    device_value, host_value = values
    if device_value == host_value:
        return "1" if device_value else "0"
    return f"defined({DEVICE_PASS})" if device_value else f"!defined({DEVICE_PASS})"
