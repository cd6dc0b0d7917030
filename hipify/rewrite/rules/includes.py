"""Rewrite CUDA ``#include``s to the row's HIP header and drop later duplicates.

The delimiters (``<>`` or ``""``) are kept as written. A later include that maps to a HIP
header the file already includes (in the same or an enclosing ``#if`` branch) is deleted,
leaving its line empty. ROCm < 6.0 uses the flat library headers (``hipblas.h``).

A translation unit's main file gets the HIP runtime include before its first include (``runtime_top``): nvcc
includes the CUDA runtime before the first line, so nothing of the project precedes it. Where the file includes
the CUDA runtime itself further down, outside any ``#if`` (``#include <cstdio>`` then ``#include <cuda.h>``),
that include moves to the top rather than being repeated there: its line is deleted (the second inclusion would
be a no-op behind HIP's include guard, so nothing else changes).

A CUDA header may make names visible through headers it includes that its HIP counterpart does not include
(CUDA 13's ``cub/cub.cuh`` brings Thrust's iterators, hipCUB's header does not bring rocThrust's: the table's
``Row.brings``, found from both vendors' headers): a file using such a name qualified, and not including the
header that declares it, gets that include after the translated one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ...knowledge.table import Row
from ...lexing.facts import Include, Region
from ...lexing.lines import line_end as physical_line_end
from ...lexing.lines import line_start as physical_line_start
from ...model import Diagnostic, Edit, Origin, Severity
from ..context import Context
from ..layout import Anchor, branch_paths, same_branch, translation_unit_anchor, unconditional
from ..registry import Finding, register
from ..unused_headers import unused_header
from .build_conditions import condition_plan

HIP_RUNTIME_HEADER = "hip/hip_runtime.h"
_RUNTIME_HEADERS = frozenset((HIP_RUNTIME_HEADER,))
_CLOSE = re.compile(r'[>"][ \t]*')


@dataclass(frozen=True)
class IncludePlan:
    findings: tuple[Finding, ...]
    runtime_line: int  # start of the line that includes the HIP runtime after translation, -1 if none
    # Where the HIP runtime include of a translation unit's main file goes (before its first include), when it is
    # not there already: None when nothing is inserted there.
    runtime_top: Anchor | None = None


def target_header(row: Row, target: str, ctx: Context) -> str:
    """The header to write for a header row's chosen target, per the target ROCm."""
    if ctx.options.rocm_version < (6, 0):
        folder, _, name = target.partition("/")
        if name and "/" not in name and folder != "hip":
            return name  # before ROCm 6.0 the library headers were flat (hipblas.h)
    return target


def include_plan(ctx: Context) -> IncludePlan:
    return ctx.memo(_plan)


def _plan(ctx: Context) -> IncludePlan:
    text = ctx.text
    paths = branch_paths(ctx.facts.directives)
    seen: dict[str, list[tuple[int, ...]]] = {}
    findings: list[Finding] = []
    runtime_line = -1
    top = _translation_unit_top(ctx)
    added: set[str] = {inc.header for inc in ctx.facts.includes}  # headers the file includes, or gets included
    for inc in ctx.facts.includes:
        path = paths.get(inc.start, ())
        allowed = ctx.allowed(inc.start, inc.region)
        row = ctx.table.lookup(inc.header)
        result = inc.header
        if inc.header in ctx.compat_headers:
            continue  # the compatibility header stands for it (rules/compat.py)
        if row is not None and row.kind == "header" and allowed:
            decision = ctx.decide(row)
            if not decision.target and unused_header(ctx, inc, row):
                findings.append(_commented_out(text, inc, row.cuda))
                continue
            if decision.code:
                findings.append(
                    Diagnostic(
                        decision.code, decision.message, offset=inc.name[0], severity=Severity.WARNING, subject=row.cuda
                    )
                )
            if decision.target:
                result = target_header(row, decision.target, ctx)
                earlier = seen.get(result, [])
                if any(same_branch(p, path) for p in earlier) and not code_after_include(ctx.masked, inc):
                    findings.append(delete_include(text, inc, row.cuda))
                    continue
                if top is not None and result in _RUNTIME_HEADERS and runtime_line < 0 and _movable(ctx, inc, top):
                    findings.append(_delete_line(text, inc, row.cuda))  # moved: the top insertion stands for it
                    seen.setdefault(result, []).append(path)
                    continue
                if result != inc.header:
                    findings.append(Edit(inc.name[0], inc.name[1], result, "HPY002", Origin.TEXT, subject=row.cuda))
                findings.extend(_brought_includes(ctx, row, inc, added))
        seen.setdefault(result, []).append(path)
        # (not one in a branch the decided conditions rewrite: the next translation, which reads them as written
        # then, might not count it, and would add another)
        compiled = inc.region is not Region.INACTIVE and not condition_plan(ctx).rewrites(inc.start)
        if result in _RUNTIME_HEADERS and runtime_line < 0 and compiled:
            runtime_line = physical_line_start(text, inc.start)
            if runtime_line == (top.offset if top is not None else -1):
                top = None  # the runtime already comes first
    return IncludePlan(tuple(findings), runtime_line, top)


def _brought_includes(ctx: Context, row: Row, inc: Include, added: set[str]) -> Iterator[Edit]:
    """Includes of the HIP headers declaring the names the CUDA header makes visible and its HIP target does not
    (``Row.brings``: CUDA 13's cub.cuh brings Thrust's iterators), for those the file uses qualified
    (``thrust::counting_iterator``), each once, after the translated include."""
    if not row.brings:
        return
    used = ctx.memo(_qualified_used)
    headers: list[str] = []
    for pair in row.brings.split():
        name, _, header = pair.partition("=")
        if name in used and header not in added:
            added.add(header)
            headers.append(header)
    if headers:
        text = "".join(f"\n#include <{header}>" for header in headers)
        yield Edit(inc.end, inc.end, text, "HPY002", Origin.TEXT, subject=row.cuda)


_QUALIFIED = re.compile(r"\b[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)+", re.ASCII)
_SPACE = re.compile(r"\s+")


def _qualified_used(ctx: Context) -> frozenset[str]:
    """The qualified names of the file's code (``thrust::counting_iterator``, spaces taken out), with each of
    their leading parts (``a::b`` of ``a::b::c``)."""
    out: set[str] = set()
    for match in _QUALIFIED.finditer(ctx.masked):
        parts = _SPACE.sub("", match.group()).split("::")
        out.update("::".join(parts[:n]) for n in range(2, len(parts) + 1))
    return frozenset(out)


def _commented_out(text: str, inc: Include, header: str) -> Edit:
    """The include directive as a comment, saying why (the line stays: line numbers hold)."""
    directive = text[inc.start : inc.end].rstrip()
    note = f"/* hipify-py: HIP has no {header} and nothing here uses it: {directive.replace('*/', '* /')} */"
    return Edit(inc.start, inc.start + len(directive), note, "HPY027", Origin.TEXT, subject=header)


def _translation_unit_top(ctx: Context) -> Anchor | None:
    """Where a translation unit's main file that uses HIP gets the HIP runtime include: before its first include
    (as nvcc's implicit one comes first). None when it is not such a file, includes nothing or has an include
    guard."""
    project = ctx.source.project
    if not (project.tu_root and project.tu_hip and ctx.options.insert_runtime_include) or project.hip_prelude:
        return None
    anchor = translation_unit_anchor(ctx.text, ctx.facts.directives, ctx.facts.comments)
    return None if anchor is None or anchor.after_line else anchor


def _movable(ctx: Context, inc: Include, top: Anchor) -> bool:
    """Can this CUDA runtime include move to the top: compiled whatever the macros, and not the first line there?"""
    if inc.region is Region.INACTIVE or not ctx.allowed(inc.start, inc.region) or code_after_include(ctx.masked, inc):
        return False
    line_start = physical_line_start(ctx.text, inc.start)
    return line_start != top.offset and unconditional(ctx.text, ctx.facts.directives, ctx.facts.comments, inc.start)


def code_after_include(masked: str, inc: Include) -> bool:
    """Would deleting the directive join code it separates? The preprocessor ignores code after the header name
    on its line (``#include <x.h> ::``), and a directive keeps the code before it from what follows it
    (``cub`` / ``#include <cuda.h>`` / ``::x``): deleted, either becomes code the next translation reads anew. Safe
    where the line ends after the name and the code before ends a statement or a block, or is a directive."""
    close = _CLOSE.match(masked, inc.name[1])
    end = close.end() if close else inc.name[1]
    if masked[end : physical_line_end(masked, end)].strip(" \t\f\v"):
        return True
    before = masked[: physical_line_start(masked, inc.start)].rstrip()
    if not before or before[-1] in ";{}":
        return False
    return not before[physical_line_start(before, len(before)) :].lstrip().startswith("#")


def _delete_line(text: str, inc: Include, subject: str) -> Edit:
    """Delete the directive with its line when nothing else is on it (else as :func:`_delete`)."""
    line_start = physical_line_start(text, inc.start)
    close = _CLOSE.match(text, inc.name[1])
    end = close.end() if close else inc.end
    rest_end = text.find("\n", end)
    rest_end = len(text) if rest_end < 0 else rest_end
    if text[line_start : inc.start].strip(" \t\f\v") or text[end:rest_end].strip(" \t\r\f\v"):
        return delete_include(text, inc, subject)
    return Edit(line_start, min(rest_end + 1, len(text)), "", "HPY002", Origin.TEXT, subject=subject)


def delete_include(text: str, inc: Include, subject: str) -> Edit:
    """Delete the directive, keeping the line (and any comment before or after it on the line)."""
    line_start = physical_line_start(text, inc.start)
    if text[line_start : inc.start].strip(" \t\f\v"):
        line_start = inc.start  # a comment (or the end of one) precedes the '#' on this line
    close = _CLOSE.match(text, inc.name[1])
    end = close.end() if close else inc.end
    return Edit(line_start, min(end, inc.end), "", "HPY002", Origin.TEXT, subject=subject)


def include_path_edits(ctx: Context) -> Iterator[Edit]:
    """Quoted includes of files the output renames (--rename-extensions), matched by basename.

    Structural, like the file names themselves: applied in every region, and in files that
    are otherwise skipped, so the output tree's includes always name files that exist.
    """
    renames = dict(ctx.source.project.include_renames)
    if not renames:
        return
    for inc in ctx.facts.includes:
        if inc.angled:
            continue
        head, _, base = inc.header.rpartition("/")
        new_base = renames.get(base)
        if new_base is not None:
            new_name = f"{head}/{new_base}" if head else new_base
            yield Edit(inc.name[0], inc.name[1], new_name, "HPY007", Origin.TEXT, subject=inc.header)


def quote_edits(ctx: Context) -> Iterator[Edit]:
    """``<boost/x.hpp>`` found only next to the file becomes ``"boost/x.hpp"``."""
    quoted = frozenset(ctx.source.project.quote_includes)
    if not quoted:
        return
    for inc in ctx.facts.includes:
        row = ctx.table.lookup(inc.header)
        if inc.angled and inc.header in quoted and (row is None or row.kind != "header"):
            yield Edit(inc.name[0] - 1, inc.name[1] + 1, f'"{inc.header}"', "HPY002", Origin.TEXT, subject=inc.header)


@register("includes")
def includes(ctx: Context) -> Iterator[Finding]:
    yield from include_plan(ctx).findings
    yield from include_path_edits(ctx)
    yield from quote_edits(ctx)
