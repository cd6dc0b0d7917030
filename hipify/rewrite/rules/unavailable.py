"""Code that needs CUDA APIs HIP lacks costs the smallest unit that holds it, never the files around it.

A shared header (a backend's ``common.cuh``, a samples' ``cublas_utils.h``) may hold one statement that calls an API
HIP lacks, inside a member function of the struct every other file takes by reference. Translated as it is, that
statement breaks every file that includes the header. The project model knows who uses what (``ProjectFacts``):

- a statement that uses such an API is left out behind ``#if defined(HIPIFY_ENABLE_<api>)``, and an ``#else`` branch
  stops the program there, naming the API (``hipify_unavailable``, from the compatibility header); where no single
  statement can go (the API's result declares a variable later code reads, it is tested in a condition), the
  function's body is left out the same way. The declaration, its signature and every other member stay: the files
  that use them compile, and a program stops only where it reaches what HIP lacks (HPY010, one finding per unit);
- a declaration no smaller unit holds (a parameter or data member of a type HIP lacks) is disabled whole, behind
  ``#if defined(HIPIFY_ENABLE_<name>)``, used or not (as written it would stop every file including its header;
  disabled, only the files using it, which need what HIP lacks themselves); a function keeps its signature in an
  ``#else`` branch with a body that stops the program;
- each use of a declaration disabled whole is reported at the use (HPY111).
A translation unit's own functions (its program, or a library's exported API) lose statements or bodies the same way;
a declaration of its own is disabled whole only where its head needs what HIP lacks (a parameter of such a type:
as written the file cannot compile), and nothing is left out for names an option would translate (``--miopen``):
the program compiles and stops where it reaches what HIP lacks.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from dataclasses import replace

from ...knowledge.codes import UNCONVERTED_CODES
from ...knowledge.table import Row
from ...lexing.conditionals import LEFT_OUT_PREFIX, CondDirective, skipped_with_derived
from ...lexing.declarations import Declaration
from ...lexing.facts import Identifier, Region
from ...lexing.lines import line_end, line_start
from ...lexing.statements import LeftOut, smallest_units
from ...lexing.text_facts import names_no_type
from ...model import Diagnostic, Edit, Origin, Severity, Span
from ..context import Context
from ..device_bodies import host_only_head
from ..registry import Finding, register
from ..wrap import already_wrapped, wrap

ENABLE_PREFIX = LEFT_OUT_PREFIX


def enable_macro(name: str) -> str:
    """The macro that compiles code left out for ``name`` (a qualified API's ``::`` spelled ``_``: a macro name is
    one identifier)."""
    return ENABLE_PREFIX + name.replace("::", "_")


_MEMBER = (".", "->")
# What the program calls where code was left out: prints the API's name and stops (the compatibility header's).
TRAP = "hipify_unavailable"
TRAP_ENTRY = "unavailable"


def _declarations(ctx: Context) -> list[Declaration]:
    return ctx.declarations


def _missing_in(ctx: Context, span: Span) -> list[str]:
    """The APIs HIP lacks that code in ``span`` compiles (what a branch the translated build skips names is not)."""
    return sorted({name for _, name in _missing_uses(ctx, span)})


def names_api(ctx: Context, ident: Identifier, row: Row) -> bool:
    """Does this identifier name the CUDA API of ``row``, rather than a name of the project's own: a member
    (``pq.dsub``, ``p->dsub``; a class's ``::`` never resolves to a row), a name the project declares in any scope
    (the AST says which use is whose; the text, the file's own declarations and the project's shadowing names), or
    a CUDA device function named in a function compiled for the host alone?"""
    if ident.user_declared or ident.name in ctx.source.project.shadowed:
        return False
    if (ident.prev_token in _MEMBER) != (row.kind == "field"):
        return False
    if row.kind == "type" and names_no_type(ctx.masked, ident.start, ident.end):
        return False  # a variable or parameter named like the type (``const Img& texture``, ``texture._width``)
    return not (row.kind == "device_function" and _in_host_function(ctx, ident.start))


def _in_host_function(ctx: Context, offset: int) -> bool:
    """Is ``offset`` in the body of a top-level function compiled for the host alone (``host_only_head``), with no
    ``__device__`` lambda before it in that body?"""
    decl = ctx.definition_at(offset)
    if decl is None or decl.kind != "function":
        return False
    masked = ctx.masked
    return host_only_head(masked[decl.start : decl.head_end]) and "__device__" not in masked[decl.head_end : offset]


def _resolved_in(ctx: Context, span: Span) -> Iterator[tuple[Identifier, Row]]:
    """The resolved identifiers that start inside ``span``, in file order."""
    starts = ctx.memo(_resolved_starts)
    resolved = ctx.resolved
    if starts is None:  # not in file order (never seen): every identifier is looked at
        return ((i, r) for i, r in resolved if span[0] <= i.start < span[1])
    # a file may disable a declaration per blocked name: each reads its own identifiers, not all of them
    lo, hi = bisect.bisect_left(starts, span[0]), bisect.bisect_left(starts, span[1])
    return iter(resolved[lo:hi])


def _resolved_starts(ctx: Context) -> list[int] | None:
    """Where each of ``ctx.resolved`` starts, when they come in file order (None otherwise)."""
    starts = [ident.start for ident, _ in ctx.resolved]
    return starts if starts == sorted(starts) else None


def disabled_declarations(ctx: Context) -> list[tuple[Declaration, list[str]]]:
    """This file's declarations to disable, with the missing APIs of each (computed once per file)."""
    return ctx.memo(_find_disabled)


def _find_disabled(ctx: Context) -> list[tuple[Declaration, list[str]]]:
    wanted = frozenset(ctx.source.project.disabled)
    if not wanted:
        return []
    out = []
    for decl in _declarations(ctx):
        if decl.name in wanted:
            missing = _missing_in(ctx, decl.span)
            if missing:
                out.append((decl, missing))
    return out


def left_out(ctx: Context) -> list[tuple[Declaration, list[str], list[LeftOut] | None]]:
    """Per disabled declaration: its missing APIs and the smallest units that hold their uses (None: none smaller
    than the declaration)."""
    return ctx.memo(_left_out)


def _left_out(ctx: Context) -> list[tuple[Declaration, list[str], list[LeftOut] | None]]:
    out = []
    directives = [(d.start, d.end) for d in ctx.facts.directives]
    for decl, missing in disabled_declarations(ctx):
        uses = [at for at, _ in _missing_uses(ctx, decl.span)]
        out.append((decl, missing, smallest_units(ctx.masked, decl, uses, directives)))
    return out


def _missing_uses(ctx: Context, span: Span) -> list[tuple[int, str]]:
    """(offset, CUDA name) of each use of an API HIP lacks inside ``span`` that code compiles: not in a directive,
    not in code the translation left out already."""
    out_already = ctx.memo(_left_out_already)
    compat = ctx.compat_names
    found = []
    for ident, row in _resolved_in(ctx, span):
        if ident.directive or not names_api(ctx, ident, row):
            continue
        if ident.region is Region.INACTIVE or any(s <= ident.start < e for s, e in out_already):
            continue
        if row.cuda not in compat and ctx.lacks(row):
            found.append((ident.start, row.cuda))
    return sorted(found)


def _left_out_already(ctx: Context) -> list[Span]:
    """Code HIP never compiles: the first branches of ``#if defined(HIPIFY_ENABLE_...)`` chains (what an earlier
    translation left out), and branches whose conditions only test macros HIP does not define
    (``#if defined(CUBLAS_VERSION)``, ``#if CUBLAS_VER_MAJOR >= 11``)."""
    return [*ctx.memo(_build_skipped), *ctx.memo(_earlier_left_out)]


def _earlier_left_out(ctx: Context) -> list[Span]:
    """The first branches of ``#if defined(HIPIFY_ENABLE_...)`` chains: what an earlier translation left out."""
    spans: list[Span] = []
    stack: list[int] = []  # per open chain: where its left-out branch started (-1: not such a chain)
    for d in ctx.facts.directives:
        if d.keyword in ("if", "ifdef", "ifndef"):
            stack.append(d.end if d.keyword == "if" and LEFT_OUT_PREFIX in d.argument else -1)
        elif d.keyword in ("elif", "else", "endif") and stack:
            if stack[-1] >= 0:
                spans.append((stack[-1], d.start))
            if d.keyword == "endif":
                stack.pop()
            else:
                stack[-1] = -1
    return spans


def _build_skipped(ctx: Context) -> list[Span]:
    """Branches the translated build skips because their conditions only test macros HIP does not define, or
    switches the file derives from such tests (an earlier translation's left-out branches aside)."""
    earlier = {start for start, _ in ctx.memo(_earlier_left_out)}
    return [
        (s, e if e >= 0 else len(ctx.text))
        for s, e in skipped_with_derived(
            [CondDirective(d.start, d.end, d.keyword, d.argument) for d in ctx.facts.directives],
            ctx.index.undefined_macros,
            ctx.index.never_defined,
        )
        if s not in earlier
    ]


def in_skipped_code(ctx: Context, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` with the warnings about CUDA code left as written that lies in a branch the translated build
    skips (one only a CUDA version or a derived switch opens) made notes that say so: nothing there stops a build
    or a run. (Code an earlier translation left out stays a warning: the program stops there, it is the work left.)"""
    if not any(d.code in UNCONVERTED_CODES and d.severity is Severity.WARNING for d in diagnostics):
        return diagnostics
    spans = ctx.memo(_build_skipped)
    if not spans:
        return diagnostics
    return [
        replace(d, severity=Severity.INFO, message=d.message + " (in code the translated build skips)")
        if d.code in UNCONVERTED_CODES and d.severity is Severity.WARNING and any(s <= d.offset < e for s, e in spans)
        else d
        for d in diagnostics
    ]


def quiet_spans(ctx: Context) -> list[Span]:
    """Spans whose unconverted-API findings are summed up in HPY010 findings: each unit left out."""
    spans: list[Span] = []
    for decl, _, units in left_out(ctx):
        if units is not None:
            spans.extend(unit.span for unit in units)
        else:
            spans.append(decl.span)
    return spans


def is_quiet(ctx: Context, finding: Diagnostic) -> bool:
    return finding.code in UNCONVERTED_CODES and any(s <= finding.offset < e for s, e in quiet_spans(ctx))


def traps_used(ctx: Context) -> bool:
    """Does this file's translation call ``hipify_unavailable`` (so it needs the compatibility header)?"""
    project = ctx.source.project
    if not project.disabled:
        return False
    return any(
        units or (units is None and _stopping_definition(ctx, decl, missing)) for decl, missing, units in left_out(ctx)
    )


@register("unavailable")
def unavailable(ctx: Context) -> Iterator[Finding]:
    project = ctx.source.project
    if not project.disabled and not project.blocked_uses:
        return
    for decl, missing, units in left_out(ctx):
        if units is not None:
            for unit in units:
                yield from _leave_out(ctx, decl, unit)
        else:
            yield from _disable(ctx, decl, missing)
    yield from _blocked_uses(ctx)


def _leave_out(ctx: Context, decl: Declaration, unit: LeftOut) -> Iterator[Finding]:
    apis = sorted({name for at, name in _missing_uses(ctx, unit.span)})
    if not apis:
        return
    what = "the body of" if unit.whole_body else "a statement of"
    owner = unit.function.name or decl.name
    yield Diagnostic(
        "HPY010",
        f"{what} {owner} needs {', '.join(apis)}, which HIP lacks: left out, it stops the program where it is "
        f"reached; {decl.name} and the files using it compile (define {enable_macro(apis[0])} to compile it)",
        unit.span[0],
        severity=Severity.WARNING,
        subject=apis[0],
    )
    text, nl = ctx.text, ctx.newline
    start, end = unit.span
    condition = f"defined({enable_macro(apis[0])})"
    first_line = line_start(text, start)
    indent = _indent(text, first_line)
    stop = f'{indent}{TRAP}("{", ".join(apis)}");  // hipify-py: HIP lacks it (HPY010)'
    opening = f"#if {condition}{nl}"
    if text[first_line:start].strip():  # code before it on its line (``{ stmt; }``): the unit gets lines of its own
        before = len(text[first_line:start].rstrip(" \t")) + first_line
        yield Edit(before, start, nl + opening + indent, "HPY010", Origin.TEXT, subject=apis[0])
    else:
        yield Edit(first_line, first_line, opening, "HPY010", Origin.TEXT, subject=apis[0])
    last_end = line_end(text, end)
    closing = f"#else{nl}{stop}{nl}#endif  // {condition}"
    if text[end:last_end].strip():
        after = end + len(text[end:last_end]) - len(text[end:last_end].lstrip(" \t"))
        yield Edit(end, after, f"{nl}{closing}{nl}{_indent(text, line_start(text, unit.function.start))}", "HPY010",
                   Origin.TEXT, subject=apis[0])  # fmt: skip
    else:
        yield Edit(last_end, last_end, f"{nl}{closing}", "HPY010", Origin.TEXT, subject=apis[0])


def _indent(text: str, line: int) -> str:
    at = line
    while at < len(text) and text[at] in " \t":
        at += 1
    return text[line:at]


def _disable(ctx: Context, decl: Declaration, missing: list[str]) -> Iterator[Finding]:
    condition = f"defined({enable_macro(decl.name)})"
    if already_wrapped(ctx.text, decl, condition):
        return  # disabled by an earlier run
    needs = ", ".join(missing)
    # (a translation unit's own declaration: so that the file itself compiles; a header's: its includers)
    compiles = "this file compiles" if ctx.source.project.tu_root else "the files including this one compile"
    yield Diagnostic(
        "HPY010",
        f"{decl.name} needs {needs}, which HIP lacks, where no smaller unit holds it: disabled so that {compiles}; "
        f"each use is reported (HPY111) (define {enable_macro(decl.name)} to compile it)",
        decl.name_at if decl.name_at >= 0 else decl.start,
        severity=Severity.WARNING,
        subject=missing[0],
    )
    comment = f"{decl.name} needs {needs} (HIP lacks it): disabled so that {compiles}"
    yield from wrap(ctx.text, ctx.newline, decl, comment, condition, "HPY010", _stopping_definition(ctx, decl, missing))


def _stopping_definition(ctx: Context, decl: Declaration, missing: list[str]) -> str:
    """The function's head, translated, with a body that stops the program; "" for other declarations and for
    a head that itself names an API HIP lacks."""
    if decl.kind != "function" or decl.head_end >= decl.end or not decl.name:
        return ""
    text, pieces, cursor = ctx.text, [], decl.start
    # Only the head's identifiers, sorted (the file's all were, once per disabled declaration).
    in_head = [pair for pair in ctx.resolved if decl.start <= pair[0].start < decl.head_end]
    for ident, row in sorted(in_head, key=lambda pair: pair[0].start):
        if ident.user_declared:
            continue
        if ctx.lacks(row):
            return ""
        target = ctx.decide(row).target
        if target and target != ident.name:
            pieces += [text[cursor : ident.start], target]
            cursor = ident.end
    head = "".join(pieces) + text[cursor : decl.head_end].rstrip()
    return f'{head} {{ {TRAP}("{", ".join(missing)}"); }}  // hipify-py: stops the program where it is called (HPY111)'


def _blocked_uses(ctx: Context) -> Iterator[Diagnostic]:
    blocked = dict(ctx.source.project.blocked_uses)
    if not blocked:
        return
    masked = ctx.masked
    hits = _whole_words(masked, [name for name in blocked if name in masked])
    if not hits:
        return
    declarations = ctx.declarations
    own = [(d.start, d.end) for d in declarations if d.name in blocked]  # the blocked declarations themselves
    names_at = {d.name_at for d in declarations}
    for at, name in hits:
        if at in names_at or any(s <= at < e for s, e in own) or not ctx.allowed(at):
            continue
        yield Diagnostic(
            "HPY111",
            f"{name} needs {blocked[name]}, which HIP lacks: this use keeps it (port it by hand)",
            at,
            severity=Severity.WARNING,
            subject=name,
        )


def _whole_words(masked: str, names: list[str]) -> list[tuple[int, str]]:
    """(offset, name) of each occurrence of ``names`` with no name character (``[\\w$]``) on either side, in
    order. Such occurrences never overlap, so these are the matches of ``(?<![\\w$])(?:names)(?![\\w$])``; found with
    str.find, where that regex (no literal to start from) was tried at every offset of every file."""
    hits = []
    size = len(masked)
    for name in names:
        at = masked.find(name)
        while at >= 0:
            end = at + len(name)
            before = masked[at - 1] if at else " "
            after = masked[end] if end < size else " "
            if not (before.isalnum() or before in "_$") and not (after.isalnum() or after in "_$"):
                hits.append((at, name))
            at = masked.find(name, at + 1)
    hits.sort()
    return hits
