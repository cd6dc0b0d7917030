"""The project scan: what one file tells the rest of the project, found from its text alone.

A fast pass (the lexer and a word split; no identifier facts, no planning) run over every
file before translation. It never edits; :mod:`hipify.project.model` combines the scans
into the facts each file's translation needs.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..compat import is_generated, load_catalog
from ..knowledge.cxx import is_hip_spelling
from ..knowledge.table import MappingTable
from ..lexing.compiler_branches import host_skipped
from ..lexing.compiler_branches import inside as inside_any
from ..lexing.conditionals import CondDirective, inactive_spans, skipped_with_derived
from ..lexing.declarations import Declaration, declarations_of, top_level_declarations
from ..lexing.lexer import Lexed
from ..lexing.platform_branches import (
    NO_GUARD,
    Guard,
    branch_macros,
    condition_macros,
    guards_at,
    hip_compilers_only,
    hipcc_skipped,
    only_defined,
)
from ..lexing.shared import lex_kept
from ..lexing.statements import has_smaller_units
from ..lexing.text_facts import (
    INCLUDE,
    after_macro_name,
    declarator_after_mark,
    declares,
    directives_of,
    names_no_type,
    next_token,
    prev_token,
    statement_macros,
)
from ..lexing.tiers import INLINE_ASM, condition_words, guards_of, numeric_constants
from ..model import Span
from ..options import Options
from ..rewrite.availability import compat_provided, is_missing
from ..rewrite.build_choice import BuildConditions, build_conditions, hip_renames
from ..rewrite.build_target import BUILD_MACROS
from ..rewrite.device_bodies import host_only_head
from ..rewrite.flavour import roc_gap, wants_roc
from ..rewrite.index import CUDA_LIKE, DEVICE_MARKERS, TableIndex, index_of, macro_needed, required_macros
from ..rewrite.skipped_by_build import skipped_spans
from ..rewrite.status import decide, has_hip_names
from ..sources.fileio import DEFAULT_MAX_SIZE, SourceError, read_source
from .words import NO_WORDS, Words

_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
_WORDS_ONLY = str.maketrans({chr(i): " " for i in range(128) if chr(i) not in _WORD_CHARS})
_IDENT = re.compile(r"[A-Za-z_$][\w$]*", re.ASCII)
_MACRO_NAME = re.compile(r"[A-Za-z_]\w*")
_INCLUDE_KEYWORDS = frozenset(("include", "include_next", "import"))
HIP_RUNTIME_HEADER = "hip/hip_runtime.h"


@dataclass(frozen=True)
class IncludeRef:
    name: str  # as written between the delimiters
    angled: bool


@dataclass(frozen=True)
class BlockedDeclaration:
    """A top-level declaration that uses CUDA APIs HIP lacks (it cannot compile as translated)."""

    name: str
    missing: tuple[str, ...]  # the CUDA names HIP lacks, sorted
    uses: frozenset[str] = frozenset()  # the names it uses (they count where it is never disabled)
    # Every use of those names is in a statement or function body that can be left out alone
    # (``lexing.statements.smallest_units``): the declaration itself stays, for every file that uses it.
    trappable: bool = False
    # Some of those names are translated with an option this run lacks (cuDNN with --miopen): in a translation
    # unit's own code the finding says which option, nothing is left out.
    by_option: bool = False


@dataclass(frozen=True)
class FileScan:
    path: str  # the path the file was read from
    digest: str = ""  # of the decoded text: what the file's dependents' cache keys cover
    includes: tuple[IncludeRef, ...] = ()  # every include, active or not (an over-approximation is safe)
    defines: frozenset[str] = frozenset()  # macros the file #defines
    required: frozenset[str] = frozenset()  # macros its CUDA uses need defined before the HIP headers
    # --roc: (family, ROC-side names or not, macro): what the uses of a family that may keep its HIP names need,
    # for either choice (the project decides: ``roc_gaps``)
    flavoured: frozenset[tuple[str, bool, str]] = frozenset()
    # --roc: (family, why) for the families whose ROC-side names this file's uses rule out
    roc_gaps: tuple[tuple[str, str], ...] = ()
    cuda_like: frozenset[str] = frozenset()  # CUDA-looking names it uses that the table does not know
    declares: frozenset[str] = frozenset()  # of those, the ones it declares itself (macros, functions, types)
    shadows: frozenset[str] = frozenset()  # table names it declares itself (its own cudaMallocHost overload)
    blocked: tuple[BlockedDeclaration, ...] = ()  # its declarations that need APIs HIP lacks
    # Every name it uses outside those declarations and outside declared-name positions: what
    # tells whether a blocked declaration anywhere is used.
    uses: Words = NO_WORDS
    families: frozenset[str] = frozenset()  # the table's API families of the names in ``uses`` (build files ask)
    uses_cuda_headers: bool = False  # it includes a CUDA header (one the table maps to HIP's)
    # It uses CUDA device or runtime features (``__device__``, a launch, a runtime call), so its translation
    # includes the HIP runtime if it does not already (active or not: an over-approximation is safe).
    uses_cuda_features: bool = False
    # It includes the HIP runtime itself, as written (a single-source project's prelude, which may define what must
    # precede it: ``HIP_ENABLE_WARP_SYNC_BUILTINS``).
    includes_hip_runtime: bool = False
    # The macros it defines that HIP's headers read as switches (``HIP_ENABLE_WARP_SYNC_BUILTINS``): a single-source
    # project defines them before its own HIP includes, and a translation unit that reaches a HIP header earlier
    # needs them at its top.
    hip_switches: frozenset[str] = frozenset()
    # Architecture tiers (``lexing/tiers.py``): its numeric macro constants, the words its conditions on the CUDA
    # build compare with, and the macros whose definition enables code of it that HIP cannot compile.
    constants: tuple[tuple[str, int], ...] = ()
    build_words: frozenset[str] = frozenset()
    lacking_guards: frozenset[str] = frozenset()
    # Its conditions on the CUDA version and architecture, with what its text tells HIP lacks in each branch
    # (rewrite/build_choice); None where it has none. The project model decides the newest build each file allows
    # and the files compiled together for the oldest of theirs.
    build_conditions: BuildConditions | None = None
    readable: bool = True
    # ``uses`` holds every word of the file, the names it only declares too (a scan with ``exact=False``);
    # exact for every name but the file's own top-level declarations.
    approximate: bool = False
    # Where each of ``includes`` sits among the file's conditions (``lexing/platform_branches``): the project model
    # finds the project's own platform options from them (``GGML_USE_HIP`` around ``#include "vendors/hip.h"``).
    include_guards: tuple[Guard, ...] = ()
    # Table names the file #defines only behind conditions, with the macros each definition needs defined: not
    # the project's where one of them is a platform option the translated build does not define.
    guarded_shadows: tuple[tuple[str, frozenset[str]], ...] = ()
    # The indices of ``includes`` that name a CUDA header the table maps (``math_constants.h``, ``cuda_runtime.h``)
    cuda_includes: frozenset[int] = frozenset()
    # It has a using-directive of a CUDA namespace the translation renames (``using namespace cub;``)
    uses_vendor_namespace: bool = False
    # Where every CUDA feature it uses sits behind conditions: the macros one of which must be defined for any of
    # them to be read (a header shared with a CPU backend: ``__device__`` only under ``GGML_COMMON_DECL_CUDA``).
    # Empty where some use is read whatever is defined.
    feature_macros: frozenset[str] = frozenset()
    # The branches of the conditional chains holding includes whose own conditions need macros defined, includes
    # in them or not (``#ifdef USE_ROCM #define CUDART_NAN_F ... #else #include <math_constants.h> #endif``)
    branch_guards: tuple[Guard, ...] = ()
    # The indices of ``includes`` only a HIP compiler reads (``#ifdef __HIP_PLATFORM_AMD__``): a header adapting
    # itself to hipcc, which the translated build reads too; no sign of a build of the project's own for HIP.
    hip_compiler_includes: frozenset[int] = frozenset()


def scan_file(
    path: str, table: MappingTable, options: Options, encoding: str = "utf-8", max_size: int = DEFAULT_MAX_SIZE
) -> FileScan:
    try:
        decoded = read_source(Path(path), encoding, max_size)
    except SourceError:
        return FileScan(path, readable=False)  # translation reports why
    return scan_text(path, decoded.text, table, options)


def scan_text(
    path: str, text: str, table: MappingTable, options: Options, lexed: Lexed | None = None, exact: bool = True
) -> FileScan:
    """The scan of ``text``; ``lexed``: its lexing, when the caller has it (one lex per file and run).

    ``exact=False``: a file that uses no API HIP lacks (so has no blocked declaration) gets every word it spells as
    its ``uses``, without reading its top-level declarations to take out the names it only declares (the slowest
    part of a scan); the model asks for the exact scan of the few such files whose words meet a blocked
    declaration or a shadowed table name of the project (:attr:`FileScan.approximate`)."""
    if is_generated(text):  # the compatibility header an earlier run wrote: ours, declares nothing of the project's
        return FileScan(path, text_digest(text))
    lexed = lexed if lexed is not None else lex_kept(text)  # kept for the file's translation
    masked = lexed.masked
    includes: list[IncludeRef] = []
    defines: set[str] = set()
    hip_aliases: set[str] = set()  # ``#define cudaStream_t hipStream_t``: the project's HIP build, not its own name
    include_lines: list[tuple[int, int]] = []  # blanked in the code below: their words are not uses
    directives = directives_of(text, lexed)
    include_at: list[int] = []
    define_at: list[tuple[str, int]] = []  # each #define of a name, where it is
    for d in directives:
        if d.keyword in _INCLUDE_KEYWORDS:
            m = INCLUDE.match(text, d.start, d.end)
            if m is not None:
                includes.append(IncludeRef(m.group(2), m.group(1) == "<"))
                include_at.append(d.start)
            include_lines.append((d.start, d.end))
        elif d.keyword == "define":
            defined = _MACRO_NAME.match(d.argument)
            if defined is not None:
                defines.add(defined.group())
                define_at.append((defined.group(), d.start))
                if _aliases_hip(d.argument, defined.end()):
                    hip_aliases.add(defined.group())
    code_text = _spaced(masked, include_lines)
    split = _Split(code_text, masked, include_lines)
    words = split.words
    index = index_of(table)
    known = words & table.by_name.keys()
    # A file that spells no name of the table and nothing CUDA-looking needs nothing and declares nothing the
    # translation cares about: only its uses (of blocked declarations elsewhere) are left to find.
    cuda_like = {w for w in words if w[:1] in _CUDA_INITIALS and w not in table and CUDA_LIKE.match(w)}
    required, flavoured = _required(known, table, index, options) if known else (set(), set())
    required |= _compat_required(words, options)
    enumerators = _enumerators(masked) if cuda_like else set()
    declared = {w for w in cuda_like if w in defines or w in enumerators} if cuda_like else set()
    statements = statement_macros(directives) if defines else frozenset()
    if cuda_like - declared:
        declared |= _declared_in(masked, cuda_like - declared, lexed.directives, split, statements)
    # Only names whose translation changes or says something (index.names): a project declaring max or norm,
    # which HIP spells the same, is its own business.
    telling = _telling(table)
    # A declaration in code a current CUDA build skips (an old toolkit's polyfill) is not the project's own: the
    # translation decides its condition (rules/build_conditions), and the name stays CUDA's.
    # So is one in code hipcc skips (``#ifndef __HIPCC__``): the translated build never reads it.
    build_skipped = (skipped_spans(directives) + hipcc_skipped(directives)) if known & telling else []
    declaring = _blanked(masked, build_skipped) if build_skipped else masked
    shadowing_defines = (defines - hip_aliases) & telling
    placed = _placed_defines(define_at, shadowing_defines, build_skipped, directives)
    guarded_shadows = tuple(sorted((n, r) for n, r in placed if r))
    shadows = {n for n, r in placed if not r} | _declared_names(
        declaring,
        known & telling,
        lexed.directives,
        split if declaring is masked else None,
        statements,
        frozenset(n for n in known & telling if table.by_name[n].kind == "function"),
    )
    missing = _missing_names(known | _qualified_known(words, table), table, options)
    if missing or exact:
        skipped = skipped_with_derived(directives, index.undefined_macros, index.never_defined) if missing else []
        gated = {n for n in missing if _needs_option(table, n, options)}
        own = missing & (shadows | declared)  # names the file declares itself, in any scope: its own
        declarations = declarations_of(masked, lexed.directives)  # the translation reads them again
        blocked, used = _blocked_and_uses(
            code_text, lexed.directives, skipped, missing - own, words, table, gated, declarations
        )
        approximate = False
    else:
        blocked, used, approximate = (), words, True
    return FileScan(
        path,
        text_digest(text),
        tuple(includes),
        frozenset(defines),
        frozenset(required),
        frozenset(flavoured),
        _roc_gaps(known, table, index, options) if known else (),
        frozenset(cuda_like),
        frozenset(declared | (defines & cuda_like)),
        frozenset(shadows),
        blocked,
        Words(used),
        frozenset(table.by_name[name].api for name in known if name in used) if known else frozenset(),
        any((row := table.lookup(i.name)) is not None and row.kind == "header" for i in includes),  # uses_cuda_headers
        _uses_features(words, code_text, directives, table),
        any(i.name == HIP_RUNTIME_HEADER for i in includes),
        _switches(defines, table, options) if defines else frozenset(),
        *_tiers(masked, directives, known, missing),
        build_conditions=_build_conditions(
            masked, directives, known & index.undefined_macros, missing - shadows - declared, table
        )
        if known & BUILD_MACROS
        else None,
        approximate=approximate,
        include_guards=(include_guards := _include_guards(directives, include_at)),
        branch_guards=_branch_guards(directives, include_guards),
        uses_vendor_namespace=_uses_vendor_namespace(masked, index.namespaces) if "namespace" in words else False,
        feature_macros=_feature_macros(words, code_text, directives, table),
        guarded_shadows=guarded_shadows,
        cuda_includes=frozenset(
            n for n, i in enumerate(includes) if (row := table.lookup(i.name)) is not None and row.kind == "header"
        ),
        hip_compiler_includes=_hip_compiler_includes(directives, include_at),
    )


def _placed_defines(
    define_at: list[tuple[str, int]], names: set[str], skipped: list[Span], directives: list[CondDirective]
) -> list[tuple[str, frozenset[str]]]:
    """Each #define of one of ``names`` that the translated build may read, with the macros it needs defined
    (``lexing/platform_branches``); the definitions it never reads are left out."""
    wanted = [(n, at) for n, at in define_at if n in names and not inside_any(skipped, at)]
    if not wanted:
        return []
    macros = condition_macros(directives)
    guards = guards_at(directives, [at for _, at in wanted], macros) if macros else [NO_GUARD] * len(wanted)
    return [(n, g.requires) for (n, _), g in zip(wanted, guards, strict=True)]


_USING_NAMESPACE = re.compile(r"\busing\s+namespace\s+([A-Za-z_][\w:\s]*?)\s*;")


def _uses_vendor_namespace(masked: str, namespaces: Mapping[str, tuple[str, str]]) -> bool:
    """``FileScan.uses_vendor_namespace``."""
    return any(re.sub(r"\s+", "", m.group(1)) in namespaces for m in _USING_NAMESPACE.finditer(masked))


def _branch_guards(directives: list[CondDirective], include_guards: tuple[Guard, ...]) -> tuple[Guard, ...]:
    """``FileScan.branch_guards``."""
    chains = frozenset(g.chain for g in include_guards if g.chain >= 0)
    return tuple(branch_macros(directives, chains, condition_macros(directives))) if chains else ()


def _hip_compiler_includes(directives: list[CondDirective], include_at: list[int]) -> frozenset[int]:
    """``FileScan.hip_compiler_includes``."""
    spans = hip_compilers_only(directives) if include_at else []
    return frozenset(n for n, at in enumerate(include_at) if inside_any(spans, at)) if spans else frozenset()


def _include_guards(directives: list[CondDirective], include_at: list[int]) -> tuple[Guard, ...]:
    """The guard of each include (all :data:`NO_GUARD` in a file whose includes are all unconditional)."""
    if not include_at or not directives:
        return ()
    macros = condition_macros(directives)
    if not macros:
        return ()
    guards = guards_at(directives, include_at, macros)
    return tuple(guards) if any(g.requires or g.own or g.chain >= 0 for g in guards) else ()


def _tiers(
    masked: str, directives: list[CondDirective], known: set[str], missing: set[str]
) -> tuple[tuple[tuple[str, int], ...], frozenset[str], frozenset[str]]:
    """``FileScan.constants``, ``build_words`` and ``lacking_guards``."""
    constants = tuple(sorted(numeric_constants(directives).items())) if directives else ()
    decided = known & BUILD_MACROS
    build_words = condition_words(directives, frozenset(decided)) if decided else frozenset()
    guards: frozenset[str] = frozenset()
    if missing or "asm" in masked:
        lacking = missing - decided  # the decided build gives the build macros their values there
        hits = sorted(at for _, at in _word_occurrences(masked, lacking)) if lacking else []

        def lacks(span: Span) -> bool:
            first = bisect.bisect_left(hits, span[0])
            return (first < len(hits) and hits[first] < span[1]) or INLINE_ASM.search(masked, *span) is not None

        guards = guards_of(directives, lacks)
    return constants, build_words, guards


def _build_conditions(
    masked: str,
    directives: list[CondDirective],
    known: set[str],
    missing: set[str],
    table: MappingTable,
) -> BuildConditions | None:
    """``FileScan.build_conditions``: its chains on the CUDA build with what HIP lacks read from the text, as the
    translation reads more of it (which may decide a file older still; the report says so): inline PTX, a table
    name HIP lacks that the file does not declare itself, the code's own ``#error``."""
    names = frozenset(known & BUILD_MACROS)
    if not names:
        return None
    # The build macros a body spells are no gap: the decided build gives them their values there.
    lacking = missing - names
    hits = sorted(at for _, at in _word_occurrences(masked, lacking)) if lacking else []
    errors = [d.start for d in directives if d.keyword == "error"]

    def lacks(span: Span) -> bool:
        first = bisect.bisect_left(hits, span[0])
        if first < len(hits) and hits[first] < span[1]:
            return True
        return INLINE_ASM.search(masked, *span) is not None or any(span[0] <= at < span[1] for at in errors)

    return build_conditions(masked, directives, names, numeric_constants(directives), _build_renames(table), lacks)


@lru_cache(maxsize=8)
def _build_renames(table: MappingTable) -> dict[str, str]:
    def hip_of(name: str) -> str:
        row = table.lookup(name)
        return row.hip if row is not None and row.hip else ""

    return hip_renames(hip_of)


def _switches(defines: set[str], table: MappingTable, options: Options) -> frozenset[str]:
    """Those of ``defines`` that HIP's headers read as switches the target ROCm needs (``FileScan.hip_switches``)."""
    return frozenset(m for m in defines & _switch_macros(table) if macro_needed(m, options.rocm_version))


@lru_cache(maxsize=8)
def _switch_macros(table: MappingTable) -> frozenset[str]:
    """The macros some row needs defined before the HIP headers (built once per table)."""
    index = index_of(table)
    return frozenset(m for group in (index.requires, index.roc_requires) for ms in group.values() for m in ms)


def _aliases_hip(argument: str, name_end: int) -> bool:
    """Is ``#define NAME BODY`` (``argument`` from NAME on) an object-like macro whose body is one HIP-side name?"""
    if name_end < len(argument) and argument[name_end] == "(":
        return False  # function-like: the project's own wrapper
    body = argument[name_end:].strip()
    return bool(body) and _MACRO_NAME.fullmatch(body) is not None and is_hip_spelling(body)


def _uses_features(
    words: set[str] | frozenset[str], code: str, directives: Sequence[CondDirective], table: MappingTable
) -> bool:
    """Does the file use CUDA device or runtime features where a host compiler reads it too? Uses only behind
    ``#ifdef __CUDACC__`` get the HIP runtime include inside that branch (``lexing/compiler_branches``)."""
    features = _features(table)
    if not (words & features or "<<<" in code):
        return False
    skipped = host_skipped(directives)
    if not skipped:
        return True
    read = _blanked(code, skipped)
    return "<<<" in read or not features.isdisjoint(_words(read))


def _feature_macros(
    words: set[str] | frozenset[str], code: str, directives: Sequence[CondDirective], table: MappingTable
) -> frozenset[str]:
    """``FileScan.feature_macros``: where the CUDA features of the file are read only when some macro is defined,
    the macros that, each defined alone, make one read (empty where one is read with every macro undefined, or
    where the file uses none)."""
    features = _features(table)
    if not (words & features or "<<<" in code) or not directives:
        return frozenset()
    macros = condition_macros(directives)
    if not macros or _reads_features(code, inactive_spans(directives, {}, only_defined(None, macros)), features):
        return frozenset()
    enabling = frozenset(
        m for m in macros if _reads_features(code, inactive_spans(directives, {}, only_defined(m, macros)), features)
    )
    return enabling or macros


def _reads_features(code: str, skipped: list[tuple[int, int]], features: frozenset[str]) -> bool:
    """Does ``code`` use a CUDA feature outside the ``skipped`` spans?"""
    read = _blanked(code, skipped) if skipped else code
    return "<<<" in read or not features.isdisjoint(_words(read))


def prepare_scan(table: MappingTable) -> None:
    """Build what scans derive from ``table`` now (before worker processes are forked, which then share it)."""
    _telling(table)
    _features(table)
    _switch_macros(table)


def text_digest(text: str) -> str:
    """The digest of a file's decoded text: what its dependents' cache keys cover."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


_CUDA_INITIALS = ("c", "C")
# Findings of names translated only under an option (--miopen, --experimental): the fix is the option.
_OPTION_CODES = frozenset(("HPY108", "HPY103"))


@lru_cache(maxsize=8)
def _features(table: MappingTable) -> frozenset[str]:
    """Names that show CUDA device or runtime features (``FileScan.uses_cuda_features``)."""
    return frozenset(DEVICE_MARKERS | index_of(table).runtime_features)


@lru_cache(maxsize=8)
def _telling(table: MappingTable) -> frozenset[str]:
    """The table's names whose translation changes or says something (built once per table)."""
    return frozenset(index_of(table).names & table.by_name.keys())


def _spaced(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span (sorted, disjoint) turned into as many spaces."""
    if not spans:
        return text
    parts: list[str] = []
    at = 0
    for start, end in spans:
        parts.append(text[at:start])
        parts.append(" " * (end - start))
        at = end
    parts.append(text[at:])
    return "".join(parts)


def _required(
    words: set[str], table: MappingTable, index: TableIndex, options: Options
) -> tuple[set[str], set[tuple[str, bool, str]]]:
    """Macros the file's uses need (``FileScan.required``, ``FileScan.flavoured``)."""
    required: set[str] = set()
    flavoured: set[tuple[str, bool, str]] = set()
    for name in sorted(words & (index.requires.keys() | index.roc_requires.keys())):
        row = table.lookup(name)
        if row is None:
            continue
        either = wants_roc(row.api, options, index) and has_hip_names(row.api)
        for roc in (False, True) if either else (None,):
            decision = decide(row, options, index.releases, roc)
            if not decision.target:
                continue
            macros = [m for m in required_macros(row, decision.roc) if macro_needed(m, options.rocm_version)]
            if roc is None:
                required.update(macros)
            else:
                flavoured.update((row.api, roc, m) for m in macros)
    return required, flavoured


def _compat_required(words: set[str], options: Options) -> set[str]:
    """Macros the compatibility header's namespaced entries that the file may use need (``group.ballot(...)``
    in a file naming ``cooperative_groups``): an over-approximation from the words, as the rest of the scan."""
    if not options.compat_header:
        return set()
    out: set[str] = set()
    for name, provided in load_catalog().qualified_uses(options.rocm_version).items():
        if name in words:
            out.update(
                d
                for q in provided
                if q.namespace in words
                for d in q.entry.defines
                if macro_needed(d, options.rocm_version)
            )
    return out


def _roc_gaps(words: set[str], table: MappingTable, index: TableIndex, options: Options) -> tuple[tuple[str, str], ...]:
    """(family, why) for each family that wants its ROC-side names and that a name this file uses rules out."""
    if not options.roc:
        return ()
    gaps: dict[str, str] = {}
    for name in sorted(words & table.by_name.keys()):
        row = table.lookup(name)
        if row is None or row.api in gaps or not has_hip_names(row.api):
            continue
        why = roc_gap(row, options, index)
        if why:
            gaps[row.api] = why
    return tuple(sorted(gaps.items()))


def _missing_names(known: set[str], table: MappingTable, options: Options) -> set[str]:
    """The names of ``known`` (the file's words the table knows) whose APIs HIP lacks (the compatibility header's
    not counted: it provides them)."""
    if not known:
        return set()
    verdicts = _missing_verdicts(table, options)
    releases = index_of(table).releases
    missing: set[str] = set()
    for name in known:
        verdict = verdicts.get(name)
        if verdict is None:
            row = table.lookup(name)
            verdict = verdicts[name] = row is not None and is_missing(row, options, releases)
        if verdict:
            missing.add(name)
    return missing - compat_provided(options) if missing else missing


def _needs_option(table: MappingTable, name: str, options: Options) -> bool:
    """Is ``name`` translated under an option this run lacks (``--miopen``, ``--experimental``)?"""
    row = table.lookup(name)
    return row is not None and decide(row, options).code in _OPTION_CODES


@lru_cache(maxsize=8)
def _missing_verdicts(table: MappingTable, options: Options) -> dict[str, bool]:
    """Each name's :func:`is_missing` verdict under ``options``, filled as names are met (a run asks about the
    same few hundred names in every file)."""
    return {}


def _blocked_and_uses(
    code: str,
    directives: tuple[tuple[int, int], ...],
    skipped: list[tuple[int, int]],
    missing_names: set[str],
    words: set[str],
    table: MappingTable,
    gated: frozenset[str] | set[str] = frozenset(),  # of missing_names: translated under an option this run lacks
    declarations: list[Declaration] | None = None,  # of ``code`` (its directives separating them), when known
) -> tuple[tuple[BlockedDeclaration, ...], set[str]]:
    """The declarations that use ``missing_names`` (APIs HIP lacks), and the names used outside them and outside
    declared-name positions (``words``: every word of ``code``)."""
    blocked: list[BlockedDeclaration] = []
    unused: list[tuple[int, int]] = []  # spans blanked before the uses are read
    # A missing name in a directive (``#if __CUDACC_VER_MAJOR__ >= 9``) does not keep the code from compiling:
    # an undefined macro is 0 there, and the other branch is compiled.
    # Nor does one in a branch HIP skips (``#if CUDART_VERSION >= 11000``: no CUDA version macro is defined).
    statements = _blanked(code, [*directives, *skipped]) if missing_names else code
    # Where the missing names occur: only the declarations holding one are read word by word. A member
    # (``pq.dsub``, ``p->dsub``) is the project's own name, never the API; so is one a named scope qualifies
    # (``std::any``: the table's plain names are CUDA's global ones).
    # Nor is a type's name where no type can stand (``const Img& texture``, ``texture._width``): a variable's.
    found = sorted(
        (at, name)
        for name, at in _word_occurrences(statements, missing_names)
        if not _is_member(statements, at)
        and _scope_of(statements, at) in _cuda_scopes(table)
        and not (table.by_name[name].kind == "type" and names_no_type(statements, at, at + len(name)))
    )
    qualified = {name for name in missing_names if "::" in name}
    if qualified:  # ``cub::CurrentDevice``: the last part, where the row's scopes qualify it
        by_last: dict[str, set[str]] = {}
        for name in qualified:
            by_last.setdefault(name.rsplit("::", 1)[1], set()).add(name)
        for last, at in _word_occurrences(statements, set(by_last)):
            scoped = f"{_scope_of(statements, at)}::{last}"
            if scoped in by_last[last] and not _is_member(statements, at):
                found.append((at, scoped))
        found.sort()
    hits = [at for at, _ in found]
    for d in declarations if declarations is not None else top_level_declarations(code, directives):
        if d.name_at >= 0:  # declaring a name is not using it
            unused.append((d.name_at, d.name_at + len(d.name)))
        first = bisect.bisect_left(hits, d.start)
        if first == len(hits) or hits[first] >= d.end:
            continue
        named = {name for at, name in found[first : bisect.bisect_left(hits, d.end)]}
        if (
            d.kind == "function"
            and host_only_head(code[d.start : d.head_end])
            and "__device__" not in code[d.start : d.end]
        ):
            # a CUDA device function named in a function compiled for the host alone is the project's name
            named = {n for n in named if table.by_name[n].kind != "device_function"}
        missing = sorted(named - _only_case_labels(code[d.start : d.end], table))
        if missing:
            inside = _words(statements[d.start : d.end])
            uses = [at for at, name in found[first : bisect.bisect_left(hits, d.end)] if name in missing]
            trappable = has_smaller_units(code, d, uses, list(directives))
            blocked.append(
                BlockedDeclaration(
                    d.name, tuple(missing), frozenset(inside - {d.name}), trappable, not gated.isdisjoint(missing)
                )
            )
            if not trappable:  # left out whole where nothing else uses it: its own uses do not count
                unused.append((d.start, d.end))
    if not unused:
        return tuple(blocked), words
    return tuple(blocked), _words(_spaced(code, _merged(unused)))


def _is_member(masked: str, at: int) -> bool:
    """Is the name at ``at`` a member named after ``.`` or ``->``?"""
    before = masked[max(0, at - _LOOK_BACK) : at].rstrip(_SKIPPED_BACK)
    return before.endswith(".") or before.endswith("->")


_QUALIFIER = re.compile(r"(?:(?:[A-Za-z_]\w*|>)\s*::\s*)+\Z")


def _scope_of(masked: str, at: int) -> str:
    """The scopes qualifying the name at ``at``, blanks dropped (``std`` of ``std::any``, ``cuda::std`` of
    ``cuda::std::atomic``, ``>`` for a template's); "" when unqualified or qualified by the global scope alone."""
    m = _QUALIFIER.search(masked, max(0, at - _LOOK_BACK), at)
    return re.sub(r"\s+", "", m.group())[:-2] if m else ""


def _qualified_known(words: set[str], table: MappingTable) -> set[str]:
    """The table's qualified names (``cub::CurrentDevice``) whose last part and first scope are both words of the
    file: the ones it may use, asked about like its plain names (where they occur is read per occurrence)."""
    by_last = _qualified_by_last(table)
    return {q for w in words & by_last.keys() for q in by_last[w] if q.split("::", 1)[0] in words}


@lru_cache(maxsize=8)
def _qualified_by_last(table: MappingTable) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for name in table.by_name:
        if "::" in name:
            out.setdefault(name.rsplit("::", 1)[1], []).append(name)
    return {last: tuple(sorted(names)) for last, names in out.items()}


@lru_cache(maxsize=8)
def _cuda_scopes(table: MappingTable) -> frozenset[str]:
    """The scopes a table name may be qualified by and still be CUDA's: none, or one the table's own names are
    qualified by (``cub``, ``cuda::std``, ``thrust::system::cuda``): ``std::any`` is the standard library's."""
    return frozenset(("", *(name.rsplit("::", 1)[0] for name in table.by_name if "::" in name)))


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, overlapping spans joined."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def _blanked(code: str, spans: list[tuple[int, int]]) -> str:
    """``code`` with each span blanked (same length, newlines kept; an end of -1 is the end of the file)."""
    parts: list[str] = []
    at = 0
    for start, end in sorted((s, len(code) if e < 0 else e) for s, e in spans):
        if end <= at:
            continue
        start = max(start, at)
        parts.append(code[at:start])
        parts.append("\n".join(" " * len(line) for line in code[start:end].split("\n")))
        at = end
    parts.append(code[at:])
    return "".join(parts)


_CASE_LABEL = re.compile(r"case(?<![\w$]case)\s+([A-Za-z_]\w*)\s*:(?!:)")  # the lookbehind after the literal


def _only_case_labels(text: str, table: MappingTable) -> set[str]:
    """Enumerators ``text`` names only as ``case X:`` labels: translation disables such a label on one HIP lacks
    (it can never be taken), so it does not keep the code around it from compiling."""
    if "case" not in text:
        return set()
    labels = {m.group(1) for m in _CASE_LABEL.finditer(text)}
    labels = {n for n in labels if (row := table.lookup(n)) is not None and row.kind == "enum_constant"}
    if not labels:
        return set()
    return labels - _words(_CASE_LABEL.sub(" ", text))


class _Split:
    """The words of a file's code (its masked text, include lines blanked), split once: their set, and for an
    ASCII text the blanked text and its words in order, which the searches for names' occurrences share."""

    def __init__(self, code: str, masked: str, include_lines: list[tuple[int, int]]) -> None:
        self.spaced = ""
        self.tokens: list[str] = []
        if code.isascii():
            self.spaced = " " + code.translate(_WORDS_ONLY) + " "
            self.tokens = self.spaced.split()
            self.words = set(self.tokens)
        else:
            self.words = _words(code)
        # Where a name is none of these, its occurrences in the masked text are those in the code.
        self.include_words = _words(" ".join(masked[s:e] for s, e in include_lines)) if include_lines else set()


def _words(text: str) -> set[str]:
    return set(text.translate(_WORDS_ONLY).split()) if text.isascii() else set(_IDENT.findall(text))


def _declared_names(
    masked: str,
    names: set[str],
    directives: Sequence[Span],
    split: _Split | None = None,
    not_types: frozenset[str] = frozenset(),
    functions: frozenset[str] = frozenset(),
) -> set[str]:
    """Those of ``names`` that some occurrence declares (``hipError_t cudaMallocHost(int)``). ``split``: the word
    split of ``masked``'s code, where the caller has it; ``not_types``: words after which a name is never declared
    (the file's statement macros, ``CUERR``); ``functions``: those of ``names`` that name CUDA functions, declared
    after a pointer or reference declarator too (``MemCreateFn *cuMemCreate{nullptr};``: nothing multiplies a
    function)."""
    found: set[str] = set()
    lines = _Lines(directives)
    for name, start in _occurrences(masked, names, found, split):
        # A declared name follows a word (a type, ``struct``): after any other token (``(cudaMalloc``,
        # ``= cudaMalloc``) it is a use, seen without reading the tokens around. A #define's name is read with its
        # conditions (``_placed_defines``), and its body declares nothing.
        before = _before(masked, start)
        if before in ("*", "&") and name in functions and not lines.in_directive(start):
            if declarator_after_mark(masked, start, name):
                found.add(name)
            continue
        if before not in _WORD_OR_UNSURE or lines.in_directive(start):
            continue
        prev, prev_at = prev_token(masked, start)
        nxt, next_at = next_token(masked, start + len(name))
        prev, nxt = lines.neighbours(start, prev, prev_at, nxt, next_at)
        if prev and prev not in not_types and declares(prev, nxt, name):
            found.add(name)
    return found


_SKIPPED_BACK = " \t\r\n\f\v\\"  # what prev_token skips to reach the token before an offset
_LOOK_BACK = 64  # characters read back at first: a longer run of blanks takes prev_token's walk


def _before(masked: str, at: int) -> str:
    """The last character of the significant token before ``at`` ("" at the start of the text; ``_UNSURE`` when
    more than a few blanks stand before ``at``: then :func:`prev_token` says). One bounded slice rather than
    prev_token's step per character: most occurrences of a name are uses, after ``(``, ``=`` or ``;``, which
    this tells at once."""
    before = masked[max(0, at - _LOOK_BACK) : at].rstrip(_SKIPPED_BACK)
    if before:
        return before[-1]
    return _UNSURE if at > _LOOK_BACK else ""


_UNSURE = "\0"  # (a NUL in the text only takes the longer way)
# Where a name can be declared: after a word (a type, ``define``, ``struct``), or not known yet.
_WORD_OR_UNSURE = frozenset(_WORD_CHARS | {_UNSURE})
# The same, or after a pointer or reference declarator's mark (``char *cuda_path = ...``).
_WORD_MARK_OR_UNSURE = frozenset(_WORD_OR_UNSURE | {"*", "&"})


class _Lines:
    """Tokens never pair across a directive line's boundary (as in the text facts): the code after ``#endif``
    does not follow ``endif``, and the line after ``#define M v`` does not continue ``v``."""

    def __init__(self, directives: Sequence[Span]) -> None:
        self.directives = directives
        self.starts = [s for s, _ in directives]

    def in_directive(self, at: int) -> bool:
        i = bisect.bisect_right(self.starts, at) - 1
        return i >= 0 and at < self.directives[i][1]

    def neighbours(self, at: int, prev: str, prev_at: int, nxt: str, next_at: int) -> tuple[str, str]:
        """``prev`` and ``nxt`` (the tokens around the name at ``at``), each "" where it lies beyond a boundary."""
        i = bisect.bisect_right(self.starts, at) - 1
        if i >= 0 and at < self.directives[i][1]:  # inside directive i
            floor, limit = self.directives[i]
            if next_at >= limit:
                nxt = ""
        else:
            floor = self.directives[i][1] if i >= 0 else 0
            if i + 1 < len(self.starts) and self.starts[i + 1] < next_at:
                nxt = ""
        return ("" if prev_at < floor else prev), nxt


def _word_occurrences(text: str, names: set[str]) -> Iterator[tuple[str, int]]:
    """(name, offset) of each occurrence of ``names`` among the words :func:`_words` reads."""
    if not names:
        return
    if text.isascii():
        yield from _occurrences(text, names)
        return
    for m in _IDENT.finditer(text):
        if m.group() in names:
            yield m.group(), m.start()


def _occurrences(
    masked: str, names: set[str], done: set[str] | None = None, split: _Split | None = None
) -> Iterator[tuple[str, int]]:
    """(name, offset) of each whole-word occurrence of ``names`` in ``masked`` (``str.find`` in the text whose
    every non-word character is a blank: a hit with blanks around it is a whole identifier). A name the caller
    adds to ``done`` is not given again. ``split``: the word split of ``masked``'s code (its include lines
    blanked), used where no name is a word of those lines (then the occurrences are the same)."""
    if not names:
        return
    done = set() if done is None else done
    if not masked.isascii():  # non-ASCII letters end identifiers, which a blank-split would not see
        for name in sorted(names):
            for m in re.finditer(rf"(?<![\w$]){re.escape(name)}(?![\w$])", masked):
                if name in done:
                    break
                yield name, m.start()
        return
    # In file order, as text_facts.name_occurrences reads them: the words of the blanked text, those wanted
    # located one after the other with str.find from the last hit (each search is short).
    if split is not None and split.spaced and names.isdisjoint(split.include_words):
        spaced, tokens = split.spaced, split.tokens
    else:
        spaced = " " + masked.translate(_WORDS_ONLY) + " "
        tokens = spaced.split()
    find = spaced.find
    cursor = 0
    for name in [w for w in tokens if w in names]:
        at = find(" " + name + " ", cursor)
        cursor = at + len(name) + 1  # the blank after a word may be the blank before the next one
        if name not in done:
            yield name, at  # the blank before the name is at offset ``at`` of ``spaced``: the name at ``at`` here


# The lookbehind after the literal: a pattern that starts with 'enum' is searched for at C speed, one that starts
# with a lookbehind is tried at every offset.
_ENUM_HEAD = re.compile(r"enum(?<![\w$]enum)(?:\s+(?:class|struct))?(?:\s+[A-Za-z_]\w*)?(?:\s*:[^{;()]*)?\s*\{")
_ENUMERATOR = re.compile(r"\s*([A-Za-z_]\w*)")


def _enumerators(masked: str) -> set[str]:
    """Names the enumerations of this file declare (``enum class Algo { CUDA_GEMM, ... }``)."""
    names: set[str] = set()
    for head in _ENUM_HEAD.finditer(masked):
        end = masked.find("}", head.end())
        if end < 0:
            continue
        depth = 0
        item_start = head.end()
        for i in range(head.end(), end + 1):
            ch = masked[i]
            if ch in "([{":
                depth += 1
            elif ch in ")]" and depth:
                depth -= 1
            elif (ch == "," and depth == 0) or i == end:
                m = _ENUMERATOR.match(masked, item_start, i)
                if m is not None:
                    names.add(m.group(1))
                item_start = i + 1
    return names


def _declared_in(
    masked: str,
    names: set[str],
    directives: Sequence[Span],
    split: _Split | None = None,
    not_types: frozenset[str] = frozenset(),
) -> set[str]:
    """Those of ``names`` that some occurrence looks like a declaration of (``int cudaCheck(``); never after one of
    ``not_types`` (the file's statement macros)."""
    found: set[str] = set()
    lines = _Lines(directives)
    for name, start in _occurrences(masked, names, found, split):
        before = _before(masked, start)
        if before not in _WORD_MARK_OR_UNSURE and before != ">":
            continue
        prev, prev_at = prev_token(masked, start)
        nxt, next_at = next_token(masked, start + len(name))
        prev, nxt = lines.neighbours(start, prev, prev_at, nxt, next_at)
        if prev in (">", ">>"):
            # a variable or member of a template's type: ``std::unique_ptr<T> cuda_graph;``
            if nxt in (";", "=", "{", "["):
                found.add(name)
        elif prev in not_types:
            continue
        elif prev in ("typename", "class") and nxt in (">", ",", "="):
            found.add(name)  # a template's parameter: ``template <typename CUDA_METRIC>``
        elif prev and declares(prev, nxt, name) and not after_macro_name(masked, prev_at):
            found.add(name)
        elif prev in _DECLARATOR_MARKS and nxt in ("=", ";", ",", "[", "(", ")", "{"):
            # a pointer or reference declarator: ``char *cuda_path = ...``, ``T &cudaState;``, a function's last
            # parameter (``float* cuda_out)``), a member initialized in braces (``Fn *cuMemMap{nullptr};``: the
            # project's member named like the driver function it loads), and a function returning one where a
            # statement starts
            # (``T * cuda_graph(...)``: no product's value is discarded so)
            at = prev_at
            while prev in _DECLARATOR_MARKS:
                prev, at = prev_token(masked, at)
            if prev and declares(prev, "=", name) and (nxt != "(" or _starts_statement(masked, at)):
                found.add(name)
    return found


def _starts_statement(masked: str, at: int) -> bool:
    """Does the token at ``at`` start a declaration or statement (after ``;``, a brace, an access label)?"""
    prev, _ = prev_token(masked, at)
    return prev in ("", ";", "{", "}", ":")


_DECLARATOR_MARKS = frozenset(("*", "&", "&&", "const", "volatile", "__restrict__", "__restrict"))
