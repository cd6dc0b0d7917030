"""Everything a rule needs to decide, computed once per file and shared by the rules."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection
from functools import cached_property, lru_cache
from itertools import chain
from typing import TypeVar, cast

from ..compat import load_catalog
from ..knowledge.cxx import CPP_KEYWORDS
from ..knowledge.table import MappingTable, Row
from ..lexing.declarations import Declaration, declarations_of
from ..lexing.facts import FileFacts, Identifier, Region
from ..lexing.lexer import lex
from ..lexing.lines import newline_of
from ..model import SourceFile, Span
from ..options import Options
from .availability import compat_provided, is_missing
from .flavour import Flavour, choose, family_of
from .index import TableIndex, index_of
from .status import Decision, decide
from .suppress import Suppression, find_suppression

_MEMBER = (".", "->")
_WORD_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$")
# The qualifiers written before a name, ``cuda :: std ::`` (the row of a nested namespace's member names them all).
_QUALIFIED_PATH = re.compile(r"(?:[A-Za-z_]\w*\s*::\s*)+\Z")
_SPACES = re.compile(r"\s+")
CUDA_SOURCE_SUFFIXES = (".cu", ".cuh")
T = TypeVar("T")
Use = tuple[Identifier, Row]  # an identifier and the table row it names


class Context:
    """Inputs of one planning run, plus lazily computed shared results (``memo``)."""

    def __init__(
        self, source: SourceFile, facts: FileFacts, table: MappingTable, options: Options, engine: str
    ) -> None:
        self.source = source
        self.text = source.text
        self.facts = facts
        self.table = table
        self.options = options
        self.engine = engine
        self.index: TableIndex = index_of(table)
        self._memo: dict[Callable[[Context], object], object] = {}
        self._decisions = _decisions_for(table, options)
        # id(row) -> (row, is_missing under these options); the row is kept so that its id is not reused
        self._lacking: dict[int, tuple[Row, bool]] = {}

    @cached_property
    def suppression(self) -> Suppression:
        return find_suppression(self.text, self.facts.comments)

    @cached_property
    def compat_names(self) -> frozenset[str]:
        """CUDA names the compatibility header provides for the target ROCm (none when it is off),
        except those the project declares itself."""
        return compat_provided(self.options) - set(self.source.project.shadowed)

    @cached_property
    def compat_headers(self) -> frozenset[str]:
        """CUDA headers whose #include the compatibility header replaces (none when it is off)."""
        if not self.options.compat_header:
            return frozenset()
        rocm = self.options.rocm_version
        return frozenset(h for h, e in load_catalog().by_header.items() if e.applies_to(rocm))

    @cached_property
    def masked(self) -> str:
        """The text with comments and literal interiors blanked (from the facts, else lexed here)."""
        return self.facts.masked or lex(self.text).masked

    @cached_property
    def code_directives(self) -> tuple[Span, ...]:
        """Spans of the directive lines (in the masked text's coordinates, which are the text's)."""
        return tuple((d.start, d.end) for d in self.facts.directives)

    def in_directive(self, offset: int) -> bool:
        """Is ``offset`` on a directive line (``#define X "cuMemCreate"``, ``#pragma ... register``)?"""
        return any(start <= offset < end for start, end in self.code_directives)

    @cached_property
    def declarations(self) -> list[Declaration]:
        """The file's top-level declarations (lexing/declarations.py)."""
        return declarations_of(self.masked, self.code_directives)

    def definition_at(self, offset: int) -> Declaration | None:
        """The top-level definition (function, class, ...) whose body holds ``offset``, or None."""
        for decl in self.declarations:
            if decl.start > offset:
                return None
            if decl.head_end < offset < decl.end:
                return decl
        return None

    @cached_property
    def newline(self) -> str:
        """The file's line ending, for inserted lines."""
        return newline_of(self.text)

    @cached_property
    def is_cuda_source(self) -> bool:
        return os.path.splitext(self.source.path)[1].lower() in CUDA_SOURCE_SUFFIXES

    def allowed(self, offset: int, region: Region = Region.CODE) -> bool:
        """May a rule touch (or report) the code at ``offset``?"""
        if region is Region.INACTIVE and not self.options.translate_inactive:
            return False
        suppression = self.suppression
        return not suppression.regions or not suppression.covers(offset)

    @cached_property
    def resolved(self) -> tuple[tuple[Identifier, Row], ...]:
        """Identifiers that name a table row, with the row (looked up once per file)."""
        return self._split[0]

    @cached_property
    def unresolved(self) -> tuple[Identifier, ...]:
        """Identifiers the table does not know (candidates for HPY104, device markers)."""
        return self._split[1]

    @cached_property
    def _split(self) -> tuple[tuple[tuple[Identifier, Row], ...], tuple[Identifier, ...], dict[str, list[Use]]]:
        lookup = self.table.by_name.get
        row_for = self.row_for
        keywords = CPP_KEYWORDS
        pairs = []
        unknown = []
        by_row: dict[str, list[Use]] = {}
        for ident in self.facts.identifiers:
            name = ident.name
            if name in keywords:
                row = None
            elif ident.qualifier:
                row = row_for(ident)
            else:
                row = lookup(name)
            if row is None:
                unknown.append(ident)
            else:
                pair = (ident, row)
                pairs.append(pair)
                group = by_row.get(row.cuda)
                if group is None:
                    by_row[row.cuda] = [pair]
                else:
                    group.append(pair)
        return tuple(pairs), tuple(unknown), by_row

    @cached_property
    def used_rows(self) -> frozenset[str]:
        """The CUDA names of the rows this file's identifiers name."""
        return frozenset(self.uses_by_row)

    @property
    def uses_by_row(self) -> dict[str, list[Use]]:
        """The identifiers that name a table row, grouped by the row's CUDA name, in file order."""
        return self._split[2]

    def uses_of(self, rows: Collection[str]) -> list[Use]:
        """The identifiers naming one of ``rows`` (CUDA names), with their row, in file order: a rule that cares
        about a few rows reads their uses instead of every identifier of the file."""
        groups = [uses for name, uses in self._split[2].items() if name in rows]  # a file uses few rows
        if len(groups) == 1:
            return list(groups[0])
        return sorted(chain.from_iterable(groups), key=_start_of_use)

    @cached_property
    def identifiers_by_name(self) -> dict[str, list[Identifier]]:
        """Every identifier of the facts, grouped by its name, in file order."""
        out: dict[str, list[Identifier]] = {}
        for ident in self.facts.identifiers:
            group = out.get(ident.name)
            if group is None:
                out[ident.name] = [ident]
            else:
                group.append(ident)
        return out

    @cached_property
    def allows_everything(self) -> bool:
        """No suppression comments and inactive code is translated: ``allowed`` is always true."""
        return self.options.translate_inactive and not self.suppression.regions

    def row_for(self, ident: Identifier) -> Row | None:
        """The table row an identifier names, honouring ``ns::`` qualification."""
        if ident.name in CPP_KEYWORDS:
            return None
        qualifier = ident.qualifier
        if not qualifier:
            return self.table.lookup(ident.name)
        if qualifier[0] not in _WORD_START:
            return None  # Foo<T>::name: some class's member, not a CUDA API
        row = self.table.lookup(f"{qualifier}::{ident.name}")
        if row is not None:
            return row
        if qualifier in self.index.nested_qualifiers:  # cuda::std::atomic: the row names the whole path
            path = _QUALIFIED_PATH.search(self.text, max(0, ident.start - 200), ident.start)
            if path is not None:
                row = self.table.lookup(_SPACES.sub("", path.group(0)) + ident.name)
                if row is not None:
                    return row
        # Qualified by a name the table knows (an enum, a CUDA namespace): still CUDA's.
        if qualifier in self.table or qualifier in self.index.namespaces:
            return self.table.lookup(ident.name)
        return None  # a user namespace or class member that happens to share the name

    def memo(self, compute: Callable[[Context], T]) -> T:
        """``compute(self)``, computed once per file: how one rule shares what it derived with
        another (the include plan, the uses that need a macro) as a typed value."""
        if compute not in self._memo:
            self._memo[compute] = compute(self)
        return cast(T, self._memo[compute])

    @cached_property
    def flavour(self) -> Flavour:
        """Which families this file writes with their ROC library's names (``--roc``, ``--miopen``)."""
        uses = ((ident, row) for ident, row in self.resolved if self.emits(ident, row))  # read only with --roc
        return choose(self.options, self.index, uses, self.source.project.hip_families)

    def emits(self, ident: Identifier, row: Row) -> bool:
        """A use the translation writes the row's target at (not the user's own name, a member, a macro's name)."""
        if ident.user_declared or row.cuda in self.compat_names:
            return False
        if ident.directive == "undef" or (ident.directive == "define" and ident.prev_token == "define"):
            return False
        if (ident.prev_token in _MEMBER) != (row.kind == "field"):
            return False
        return self.allowed(ident.start, ident.region)

    def uses_roc(self, row: Row) -> bool:
        """Is the row's family written with its ROC library's names in this file?"""
        roc = self.options.roc or self.options.miopen
        return roc and self.flavour.uses_roc(family_of(row, self.index))

    def lacks(self, row: Row) -> bool:
        """``availability.is_missing`` under this file's options, computed once per row."""
        found = self._lacking.get(id(row))
        if found is None:
            found = self._lacking[id(row)] = (row, is_missing(row, self.options, self.index.releases))
        return found[1]

    def decide(self, row: Row) -> Decision:
        roc = self.uses_roc(row)
        found = self._decisions.get((row.cuda, roc))
        if found is None:
            found = self._decisions[(row.cuda, roc)] = decide(row, self.options, self.index.releases, roc)
        return found


def _start_of_use(use: Use) -> int:
    return use[0].start


@lru_cache(maxsize=64)
def _decisions_for(table: MappingTable, options: Options) -> dict[tuple[str, bool], Decision]:
    """The memo of row decisions: they depend only on (table, options), so the files of a run share it."""
    return {}
