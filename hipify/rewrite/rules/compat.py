"""Small CUDA features ROCm lacks come from the compatibility header (``hipify_compat.h``).

The catalog (``hipify.compat``) holds each feature's HIP code. A file that uses a name the
catalog provides (``__syncwarp``, ``__ldcs`` on a float, ``umin``) keeps it as written and
includes the compatibility header after the HIP runtime; an ``#include`` of a CUDA header the
catalog stands for (``cooperative_groups/reduce.h``) becomes the compatibility header's. The
run writes the header, holding only the entries its files use, where ``ProjectFacts`` says.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ...compat import HEADER_NAME, CompatEntry, load_catalog
from ...lexing.conditionals import CondDirective
from ...lexing.facts import Identifier, Region
from ...lexing.text_facts import declares, next_token, prev_token, whole_word
from ...model import Edit, Origin
from ..context import Context
from ..device_bodies import device_body_around, device_keywords
from ..index import macro_needed
from ..layout import branch_paths, same_branch
from ..registry import Finding, register
from ..skipped_by_build import inside, skipped_spans
from .includes import code_after_include, delete_include
from .unavailable import TRAP, TRAP_ENTRY, traps_used
from .warp_sync import unresolved_mask_calls

_MEMBER = (".", "->")


@dataclass(frozen=True)
class CompatUse:
    entries: tuple[str, ...]  # names of the catalog entries this file relies on, sorted
    header_edits: tuple[Edit, ...]  # CUDA header includes that become the compatibility header's
    include_needed: bool  # the file must include the compatibility header (it does not yet)
    defines: tuple[str, ...] = ()  # macros those entries need defined before the HIP headers, sorted


def _c_source(ctx: Context) -> bool:
    """A C source is compiled as C (by gcc, by nvcc's host compiler, by hipcc): what the compatibility header provides
    is C++ or device code, and its names there are C's own (``isnan``, ``isinf``)."""
    return ctx.source.path.endswith(".c")


def compat_use(ctx: Context) -> CompatUse:
    return ctx.memo(_find)


def _find(ctx: Context) -> CompatUse:
    if _c_source(ctx):
        return CompatUse((), (), False)
    names, headers = ctx.compat_names, ctx.compat_headers
    device_calls = _device_calls(ctx)
    if not names and not headers and not device_calls and not ctx.source.project.disabled and TRAP not in ctx.masked:
        return CompatUse((), (), False)
    catalog, rocm = load_catalog(), ctx.options.rocm_version
    entries: set[str] = {e.name for e in device_calls}
    by_name = bool(entries)
    for qualified in _qualified_uses(ctx):
        entries.add(qualified.name)
        by_name = True
    unresolved: frozenset[str] | None = None
    occurrences = ctx.identifiers_by_name
    uses = (ident for name in sorted(names & occurrences.keys()) for ident in occurrences[name])
    for ident in uses:
        if ident.prev_token in _MEMBER or ident.qualifier:
            continue
        if ident.user_declared and ident.name not in _declared_only_where_skipped(ctx):
            continue
        if ident.name in ctx.index.mask_functions and _supported(ctx, ident.name):
            # ROCm has it with a 64-bit mask: the compatibility overload only serves a 32-bit mask
            # the translation could not widen where it is written.
            unresolved = unresolved_mask_calls(ctx) if unresolved is None else unresolved
            if ident.name not in unresolved:
                continue
        if ident.region is Region.INACTIVE and not ctx.options.translate_inactive:
            continue
        if ident.name in _PLAIN_CXX_NAMES and not _has_cuda_code(ctx):
            continue  # min/max of a C++ file with no CUDA code are the standard library's concern
        if ident.name in _HOST_MATH_NAMES and _reads_no_hip(ctx):
            continue  # isnan of a CPU source that reads no HIP header: nothing is ambiguous there
        entry = catalog.for_name(ident.name, rocm)
        if entry is not None:
            entries.add(entry.name)
            by_name = True
    if TRAP in ctx.masked or traps_used(ctx):  # code left out stops the program there (rules/unavailable.py)
        entries.add(catalog.by_entry_name[TRAP_ENTRY].name)
        by_name = True
    edits: list[Edit] = []
    included = False
    spelled = ctx.source.project.compat_include
    paths = branch_paths(ctx.facts.directives)
    replaced: list[tuple[int, ...]] = []  # branch paths of the includes that became the compatibility header's
    for inc in ctx.facts.includes:
        if inc.header.rsplit("/", 1)[-1] == HEADER_NAME:
            included = True  # an earlier run's work
            continue
        entry = catalog.for_header(inc.header, rocm) if inc.header in headers else None
        if entry is None or not ctx.allowed(inc.start, inc.region):
            continue
        entries.add(entry.name)
        included = True
        path = paths.get(inc.start, ())
        if any(same_branch(p, path) for p in replaced) and not code_after_include(ctx.masked, inc):
            # a second such header on the same branch: the first one's include stands for both
            edits.append(delete_include(ctx.text, inc, inc.header)._replace(code="HPY012"))
            continue
        replaced.append(path)
        # <cooperative_groups/reduce.h> -> "hipify_compat.h" (delimiters included)
        edits.append(Edit(inc.name[0] - 1, inc.name[1] + 1, f'"{spelled}"', "HPY012", Origin.TEXT, inc.header))
    defines = {d for name in entries for d in catalog.by_entry_name[name].defines if macro_needed(d, rocm)}
    return CompatUse(tuple(sorted(entries)), tuple(edits), by_name and not included, tuple(sorted(defines)))


# Names the compatibility header provides that any C++ code spells too (CUDA's integer min/max overloads): only a
# file with CUDA code needs them.
_PLAIN_CXX_NAMES = frozenset(("min", "max"))
_DEVICE_CODE = re.compile(r"__(?:global|device|host)__")


# Names the compatibility header provides for host code that reads HIP's headers (whose global isnan & co. are
# the device's): a translation unit that reads no HIP header (a CPU backend's source, compiled by g++) needs none.
_HOST_MATH_NAMES = frozenset(("isfinite", "isnan", "isinf", "signbit"))


def _reads_no_hip(ctx: Context) -> bool:
    project = ctx.source.project
    return project.tu_root and not project.tu_hip and not _has_cuda_code(ctx)


def _has_cuda_code(ctx: Context) -> bool:
    return ctx.is_cuda_source or bool(ctx.facts.launches) or _DEVICE_CODE.search(ctx.masked) is not None


def _device_calls(ctx: Context) -> set[CompatEntry]:
    """Entries whose device overloads the file's device code calls (``cudaGetErrorString`` in a ``__device__``
    function: CUDA's runtime declares it for the device too, HIP's for the host alone). A ``__host__ __device__``
    body counts: its device pass needs the overload as much."""
    if not ctx.options.compat_header:
        return set()
    catalog, rocm = load_catalog(), ctx.options.rocm_version
    occurrences = ctx.identifiers_by_name
    called = [n for n in catalog.by_device_use if n in occurrences and catalog.for_device_use(n, rocm) is not None]
    if not called:
        return set()
    keywords = device_keywords(ctx.masked)
    out: set[CompatEntry] = set()
    for name in called:
        entry = catalog.by_device_use[name]
        if entry.device_uses_with and not any(n in occurrences for n in entry.device_uses_with):
            continue  # the file uses none of the types the overloads are for
        for ident in occurrences[name]:
            if ident.prev_token in _MEMBER or ident.qualifier or ident.user_declared or ident.next_token != "(":
                continue
            if ident.region is Region.INACTIVE and not ctx.options.translate_inactive:
                continue
            if device_body_around(ctx.masked, keywords, ident.start) is not None:
                out.add(entry)
                break
    return out


def _qualified_uses(ctx: Context) -> set[CompatEntry]:
    """Entries providing names of a namespace (``cooperative_groups::labeled_partition``) that the file uses:
    qualified by the namespace or an alias the file declares (``cg::``), unqualified after a using-directive,
    or, for a member function (``cooperative_groups::coalesced_group::ballot``), called on an object in a
    file that uses the namespace."""
    qualified = load_catalog().qualified_uses(ctx.options.rocm_version)
    occurrences = ctx.identifiers_by_name
    found = [n for n in qualified if n in occurrences]
    if not found:
        return set()
    spellings = _namespace_spellings(ctx)
    out: set[CompatEntry] = set()
    for name in found:
        for provided in qualified[name]:
            if provided.entry in out:
                continue
            written = spellings.get(provided.namespace)
            if written is None:
                continue
            qualifiers, open_here = written
            if any(_uses(ident, provided.member, qualifiers, open_here) for ident in occurrences[name]):
                out.add(provided.entry)
    return out


def _uses(ident: Identifier, member: bool, qualifiers: frozenset[str], open_here: bool) -> bool:
    if ident.user_declared or ident.region is Region.INACTIVE:
        return False
    if member:
        return ident.prev_token in _MEMBER and ident.next_token == "("
    if ident.prev_token in _MEMBER:
        return False
    return ident.qualifier in qualifiers if ident.qualifier else open_here and ident.prev_token != "::"


# The word boundary as a lookbehind after the keyword (\bnamespace is namespace(?<!\wnamespace)): a pattern that
# starts with a literal is searched for at C speed, one that starts with \b is tried at every offset.
_ALIAS = re.compile(r"namespace(?<!\wnamespace)\s+([A-Za-z_]\w*)\s*=\s*(?:::\s*)?([A-Za-z_]\w*)\s*;")
_USING = re.compile(r"using(?<!\wusing)\s+namespace\s+(?:::\s*)?([A-Za-z_]\w*)\s*;")


def _namespace_spellings(ctx: Context) -> dict[str, tuple[frozenset[str], bool]]:
    """For each namespace the file names (by itself, or through an alias it declares): the qualifiers that
    mean it, and whether a using-directive opens it. A file that mentions the namespace nowhere does not use
    it (a ``.any(`` there is another class's)."""
    masked = ctx.masked
    aliases: dict[str, set[str]] = {}
    for m in _ALIAS.finditer(masked):
        aliases.setdefault(m.group(2), set()).add(m.group(1))
    opened = set(_USING.findall(masked))
    out: dict[str, tuple[frozenset[str], bool]] = {}
    for namespace in {q.namespace for v in load_catalog().qualified_uses(ctx.options.rocm_version).values() for q in v}:
        if namespace not in masked:
            continue
        qualifiers = frozenset({namespace} | aliases.get(namespace, set()))
        out[namespace] = (qualifiers, bool(qualifiers & opened))
    return out


def _declared_only_where_skipped(ctx: Context) -> frozenset[str]:
    return ctx.memo(_find_declared_only_where_skipped)


def _find_declared_only_where_skipped(ctx: Context) -> frozenset[str]:
    """Provided names the file declares only in code a current CUDA build skips (an old toolkit's ``__ldcs``
    polyfill under ``#if __CUDACC_VER_MAJOR__ < 12``): the translation decides the condition, so the name is
    CUDA's again, and the compatibility header provides it."""
    skipped = skipped_spans([CondDirective(d.start, d.end, d.keyword, d.argument) for d in ctx.facts.directives])
    if not skipped:
        return frozenset()
    masked = ctx.masked
    out = set()
    for name in ctx.compat_names & ctx.identifiers_by_name.keys():
        places = [
            m.start()
            for m in re.finditer(whole_word(name), masked)
            if (prev := prev_token(masked, m.start())[0]) and declares(prev, next_token(masked, m.end())[0], name)
        ]
        if places and all(inside(skipped, at) for at in places):
            out.add(name)
    return frozenset(out)


def _supported(ctx: Context, name: str) -> bool:
    row = ctx.table.lookup(name)
    return row is not None and bool(ctx.decide(row).target)


@register("compat")
def compat(ctx: Context) -> Iterator[Finding]:
    yield from compat_use(ctx).header_edits
