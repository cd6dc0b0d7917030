"""The project scan: what one file tells the rest of the project, found from its text alone.

A fast pass (the lexer and a word split; no identifier facts, no planning) run over every
file before translation. It never edits; :mod:`hipify.project.model` combines the scans
into the facts each file's translation needs.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from ..compat import is_generated, load_catalog
from ..fileio import DEFAULT_MAX_SIZE, SourceError, read_source
from ..lexing.conditionals import skipped_without
from ..lexing.declarations import top_level_declarations
from ..lexing.lexer import lex
from ..lexing.text_facts import INCLUDE, after_macro_name, declares, directives_of, next_token, prev_token
from ..options import Options
from ..rewrite.availability import compat_provided, is_missing
from ..rewrite.flavour import roc_gap, wants_roc
from ..rewrite.index import CUDA_LIKE, DEVICE_MARKERS, TableIndex, index_of, macro_needed, required_macros
from ..rewrite.skipped_by_build import skipped_spans
from ..rewrite.status import decide, has_hip_names
from ..table import MappingTable

_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
_WORDS_ONLY = str.maketrans({chr(i): " " for i in range(128) if chr(i) not in _WORD_CHARS})
_IDENT = re.compile(r"[A-Za-z_$][\w$]*", re.ASCII)
_MACRO_NAME = re.compile(r"[A-Za-z_]\w*")
_INCLUDE_KEYWORDS = frozenset(("include", "include_next", "import"))


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
    uses: frozenset[str] = frozenset()
    uses_cuda_headers: bool = False  # it includes a CUDA header (one the table maps to HIP's)
    # It uses CUDA device or runtime features (``__device__``, a launch, a runtime call), so its translation
    # includes the HIP runtime if it does not already (active or not: an over-approximation is safe).
    uses_cuda_features: bool = False
    readable: bool = True


def scan_file(
    path: str, table: MappingTable, options: Options, encoding: str = "utf-8", max_size: int = DEFAULT_MAX_SIZE
) -> FileScan:
    try:
        decoded = read_source(Path(path), encoding, max_size)
    except SourceError:
        return FileScan(path, readable=False)  # translation reports why
    return scan_text(path, decoded.text, table, options)


def scan_text(path: str, text: str, table: MappingTable, options: Options) -> FileScan:
    if is_generated(text):  # the compatibility header an earlier run wrote: ours, declares nothing of the project's
        return FileScan(path, hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())
    lexed = lex(text)
    masked = lexed.masked
    includes: list[IncludeRef] = []
    defines: set[str] = set()
    code = list(masked)  # directive lines blanked below: their words are not uses
    directives = directives_of(text, lexed)
    for d in directives:
        if d.keyword in _INCLUDE_KEYWORDS:
            m = INCLUDE.match(text, d.start, d.end)
            if m is not None:
                includes.append(IncludeRef(m.group(2), m.group(1) == "<"))
            code[d.start : d.end] = " " * (d.end - d.start)
        elif d.keyword == "define":
            defined = _MACRO_NAME.match(d.argument)
            if defined is not None:
                defines.add(defined.group())
    code_text = "".join(code)
    words = set(code_text.translate(_WORDS_ONLY).split()) if code_text.isascii() else set(_IDENT.findall(code_text))
    index = index_of(table)
    required, flavoured = _required(words, table, index, options)
    cuda_like = {w for w in words if w[:1] in ("c", "C") and w not in table and CUDA_LIKE.match(w)}
    enumerators = _enumerators(masked) if cuda_like else set()
    declared = {w for w in cuda_like if w in defines or w in enumerators or _declared_in(masked, w)}
    # Only names whose translation changes or says something (index.names): a project declaring max or norm,
    # which HIP spells the same, is its own business.
    telling = index.names & table.by_name.keys()
    # A declaration in code a current CUDA build skips (an old toolkit's polyfill) is not the project's own: the
    # translation decides its condition (rules/build_conditions), and the name stays CUDA's.
    build_skipped = skipped_spans(directives) if words & telling else []
    declaring = _blanked(masked, build_skipped) if build_skipped else masked
    shadows = (defines & telling) | _declared_names(declaring, words & telling)
    skipped = skipped_without(directives, index.undefined_macros)
    blocked, uses = _blocked_and_uses(code_text, lexed.directives, skipped, words, table, options)
    return FileScan(
        path,
        hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
        tuple(includes),
        frozenset(defines),
        frozenset(required),
        frozenset(flavoured),
        _roc_gaps(words, table, index, options),
        frozenset(cuda_like),
        frozenset(declared | (defines & cuda_like)),
        frozenset(shadows),
        blocked,
        uses,
        any((row := table.lookup(i.name)) is not None and row.kind == "header" for i in includes),
        bool(words & (DEVICE_MARKERS | index.runtime_features)) or "<<<" in code_text,
    )


def _required(
    words: set[str], table: MappingTable, index: TableIndex, options: Options
) -> tuple[set[str], set[tuple[str, bool, str]]]:
    """Macros the file's uses need (``FileScan.required``, ``FileScan.flavoured``)."""
    required: set[str] = set()
    flavoured: set[tuple[str, bool, str]] = set()
    required.update(_compat_required(words, options))
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


def _blocked_and_uses(
    code: str,
    directives: tuple[tuple[int, int], ...],
    skipped: list[tuple[int, int]],
    words: set[str],
    table: MappingTable,
    options: Options,
) -> tuple[tuple[BlockedDeclaration, ...], frozenset[str]]:
    index = index_of(table)
    missing_names = {
        w for w in words if (row := table.lookup(w)) is not None and is_missing(row, options, index.releases)
    }
    missing_names -= compat_provided(options)  # the compatibility header provides them
    blocked: list[BlockedDeclaration] = []
    unused = list(code)
    # A missing name in a directive (``#if __CUDACC_VER_MAJOR__ >= 9``) does not keep the code from compiling:
    # an undefined macro is 0 there, and the other branch is compiled.
    # Nor does one in a branch HIP skips (``#if CUDART_VERSION >= 11000``: no CUDA version macro is defined).
    statements = _blanked(code, [*directives, *skipped]) if missing_names else code
    for d in top_level_declarations(code, directives):
        if d.name_at >= 0:  # declaring a name is not using it
            unused[d.name_at : d.name_at + len(d.name)] = " " * len(d.name)
        inside = _words(statements[d.start : d.end]) if missing_names else set()
        missing = sorted((missing_names & inside) - _only_case_labels(code[d.start : d.end], table))
        if missing:
            blocked.append(BlockedDeclaration(d.name, tuple(missing), frozenset(inside - {d.name})))
            unused[d.start : d.end] = " " * (d.end - d.start)
    return tuple(blocked), frozenset(_words("".join(unused)))


def _blanked(code: str, spans: list[tuple[int, int]]) -> str:
    """``code`` with each span blanked (same length, newlines kept; an end of -1 is the end of the file)."""
    parts: list[str] = []
    at = 0
    for start, end in sorted((s, len(code) if e < 0 else e) for s, e in spans):
        if end <= at:
            continue
        start = max(start, at)
        parts.append(code[at:start])
        parts.append(re.sub(r"[^\n]", " ", code[start:end]))
        at = end
    parts.append(code[at:])
    return "".join(parts)


_CASE_LABEL = re.compile(r"(?<![\w$])case\s+([A-Za-z_]\w*)\s*:(?!:)")


def _only_case_labels(text: str, table: MappingTable) -> set[str]:
    """Enumerators ``text`` names only as ``case X:`` labels: translation disables such a label on one HIP lacks
    (it can never be taken), so it does not keep the code around it from compiling."""
    labels = {m.group(1) for m in _CASE_LABEL.finditer(text)}
    labels = {n for n in labels if (row := table.lookup(n)) is not None and row.kind == "enum_constant"}
    if not labels:
        return set()
    return labels - _words(_CASE_LABEL.sub(" ", text))


def _words(text: str) -> set[str]:
    return set(text.translate(_WORDS_ONLY).split()) if text.isascii() else set(_IDENT.findall(text))


def _declared_names(masked: str, names: set[str]) -> set[str]:
    """Those of ``names`` that some occurrence declares (``hipError_t cudaMallocHost(int)``); one pass."""
    if not names:
        return set()
    pattern = re.compile(
        r"(?<![\w$])(?:" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")(?![\w$])"
    )
    found: set[str] = set()
    for m in pattern.finditer(masked):
        name = m.group()
        if name in found:
            continue
        prev, _ = prev_token(masked, m.start())
        nxt, _ = next_token(masked, m.end())
        if prev and declares(prev, nxt, name):
            found.add(name)
    return found


_ENUM_HEAD = re.compile(r"(?<![\w$])enum(?:\s+(?:class|struct))?(?:\s+[A-Za-z_]\w*)?(?:\s*:[^{;()]*)?\s*\{")
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


def _declared_in(masked: str, name: str) -> bool:
    """Does some occurrence of ``name`` look like its declaration (``int cudaCheck(``)?"""
    for m in re.finditer(rf"(?<![\w$]){re.escape(name)}(?![\w$])", masked):
        prev, prev_at = prev_token(masked, m.start())
        nxt, _ = next_token(masked, m.end())
        if prev and declares(prev, nxt, name) and not after_macro_name(masked, prev_at):
            return True
        if prev in _DECLARATOR_MARKS and nxt in ("=", ";", ",", "["):
            # a pointer or reference declarator: ``char *cuda_path = ...``, ``T &cudaState;``
            at = prev_at
            while prev in _DECLARATOR_MARKS:
                prev, at = prev_token(masked, at)
            if prev and declares(prev, "=", name):
                return True
    return False


_DECLARATOR_MARKS = frozenset(("*", "&", "&&", "const", "volatile", "__restrict__", "__restrict"))
