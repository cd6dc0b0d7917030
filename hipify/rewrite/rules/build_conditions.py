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
from collections.abc import Iterator
from dataclasses import dataclass
from typing import cast

from ...knowledge.table import Row
from ...lexing.condition_expr import Node, evaluate, names_used_for_value
from ...lexing.conditionals import Conditional, bodies_after
from ...lexing.facts import Directive
from ...lexing.text_facts import whole_word
from ...lexing.tiers import INLINE_ASM, numeric_constants
from ...model import Diagnostic, Edit, Origin, Severity, Span
from ..build_choice import (
    Branch,
    Chain,
    Lacks,
    Reading,
    choose_build,
    hip_macros,
    hip_renames,
    mentions,
    plain_warp_functions_preferred,
    read_chains,
    takes_what_hip_lacks,
)
from ..build_target import ASSUMED, Build
from ..context import Context
from ..index import CUDA_LIKE
from ..registry import Finding, register
from ..unused_headers import unused_header

_WORD = re.compile(r"[A-Za-z_$][\w$]*")
# CUDA headers' internals (__nv_cvt_..., cuda_bf16.hpp's __internal_bfloat162float): HIP has none of them
_NVIDIA_INTERNAL = re.compile(r"__(?:nv|internal)_\w+\Z")
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
    chains = read_chains(ctx.masked, ctx.facts.directives)
    deciding = [c for c in chains if mentions(c, names)]
    reading = _reading(ctx, names)

    answers: dict[Span, bool] = {}  # per body, asked once for every build tried

    def lacks(span: Span) -> bool:
        found = answers.get(span)
        if found is None:
            found = answers[span] = _lacks(ctx, span, names, chains)
        return found

    limit = _project_limit(ctx)
    slower = plain_warp_functions_preferred(ctx.masked)
    build, unsatisfiable = choose_build(deciding, reading, lacks, limit, slower)
    if limit is not None and deciding:
        alone, alone_unsatisfiable = choose_build(deciding, reading, lacks, None, slower)
        if _worse(deciding, reading, lacks, build, alone):
            # No build suits both this file and the rest of its program: it is decided alone (and says so).
            findings.append(_disagreement(ctx, deciding, build, alone))
            build, unsatisfiable = alone, alone_unsatisfiable
        else:
            findings.extend(_project_build_findings(ctx, deciding, build, limit, alone))
    for chain in deciding:
        if any(chain is c for c in unsatisfiable):
            continue  # every build would compile a branch HIP lacks: left as written (HPY110)
        for branch in chain.branches:
            if branch.node is None or not names_used_for_value(branch.node) & names:
                continue
            if not ctx.allowed(branch.directive.start, cast(Directive, branch.directive).region):
                continue
            findings.extend(_decide(ctx, branch, names, handled, build, reading))
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


def _project_limit(ctx: Context) -> Build | None:
    """The build the files compiled with this one are decided for (``ProjectFacts.build_limit``), None if none."""
    limit = ctx.source.project.build_limit
    return Build((limit[0], limit[1]), limit[2]) if limit else None


def _worse(deciding: list[Chain], reading: Reading, lacks: Lacks, build: Build, alone: Build) -> bool:
    """Would ``build`` (the program's) compile code HIP cannot compile that the file's own build does not: a
    polyfill for old toolkits and old GPUs (``#if CUDA < 12.2 && __CUDA_ARCH__ < 800``) calling CUDA internals?"""
    return any(
        takes_what_hip_lacks(c, reading, build, lacks) and not takes_what_hip_lacks(c, reading, alone, lacks)
        for c in deciding
    )


def _disagreement(ctx: Context, deciding: list[Chain], build: Build, alone: Build) -> Finding:
    source = ctx.source.project.build_limit_from or "another file compiled with it"
    return Diagnostic(
        "HPY036",
        f"decided as {alone.describe()}, not as {build.describe()} like the files compiled with it ({source} needs "
        "that): under it this file would compile a branch HIP cannot compile; the program's conditions disagree "
        "about which CUDA it is here",
        deciding[0].branches[0].directive.start,
        severity=Severity.WARNING,
    )


def _project_build_findings(
    ctx: Context, deciding: list[Chain], build: Build, limit: Build, alone: Build
) -> Iterator[Finding]:
    """Where this file alone would decide for another build than the files compiled with it (HPY036): a newer one
    (the program's is older: another file's branch for the newer build is one HIP cannot compile), or an older one
    (this file's own branches need it: the program disagrees with itself there)."""
    first = deciding[0].branches[0].directive.start
    source = ctx.source.project.build_limit_from or "another file compiled with it"
    if build != limit:
        yield Diagnostic(
            "HPY036",
            f"decided as {build.describe()}, older than {limit.describe()}, the build the files compiled with it are "
            f"decided for: a branch for the newer build uses what HIP cannot compile; the project's conditions "
            "disagree here",
            first,
            severity=Severity.WARNING,
        )
    elif alone != build:
        yield Diagnostic(
            "HPY036",
            f"decided as {build.describe()} with the files compiled with it ({source} needs it); alone this file "
            f"would be decided as {alone.describe()}",
            first,
            severity=Severity.INFO,
        )


def _reading(ctx: Context, names: frozenset[str]) -> Reading:
    renamed = ctx.memo(_renamed)
    return Reading(names, ctx.memo(_file_constants), hip_macros(renamed), renamed)


def _renamed(ctx: Context) -> dict[str, str]:
    def hip_of(name: str) -> str:
        row = ctx.table.lookup(name)
        return row.hip if row is not None and row.hip else ""

    return hip_renames(hip_of)


def _file_constants(ctx: Context) -> dict[str, int]:
    """Object-like macros defined once as a number (``#define CC_PASCAL 600``), in this file or in the headers it
    includes (``ProjectFacts.build_constants``), as conditions compare the architecture with them
    (``__CUDA_ARCH__ >= CC_PASCAL``)."""
    own = numeric_constants(ctx.facts.directives)
    return {**dict(ctx.source.project.build_constants), **own}


# --- what HIP lacks -----------------------------------------------------------------------------------------------


def _takes_older_cuda(ctx: Context, row: Row) -> bool:
    """Does the row's target take another declaration than CUDA 13's (not where a transform picks by argument count,
    nor where it takes CUDA 13's and its same-named function an older one's: ROCm 7's hipMemAdvise_v2, 'newer')?"""
    if row.transform is not None and row.transform.kind == "by_arity":
        return False
    return (row.roc_signature if ctx.decide(row).roc else row.hip_signature) != "newer"


def _lacks(ctx: Context, span: Span, names: frozenset[str], chains: list[Chain], follow: bool = True) -> bool:
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


def _decide(
    ctx: Context, branch: Branch, names: frozenset[str], handled: set[int], build: Build, reading: Reading
) -> Iterator[Finding]:
    node = branch.node
    assert node is not None
    offset = branch.offset
    replaced: list[tuple[Node, str]] = []
    _replacements(node, names, replaced, build, reading)
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


def _replacements(
    node: Node, names: frozenset[str], out: list[tuple[Node, str]], build: Build, reading: Reading
) -> None:
    """The largest parts of ``node`` the build decides (the whole, else operands of ``&&``, ``||``, ``!`` and
    parentheses), each with what it becomes."""
    if names_used_for_value(node) & names:
        form = _form(node, build, reading)
        if form is not None:
            out.append((node, form))
            return
    if node.kind == "group" or (node.kind == "unary" and node.value == "!") or node.value in ("&&", "||"):
        for child in node.children:
            _replacements(child, names, out, build, reading)


def _form(node: Node, build: Build, reading: Reading) -> str | None:
    values = []
    for device in (True, False):
        value_of, defined = reading.decided(device, build)
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
