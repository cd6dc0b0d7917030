"""Split a lexed header into top-level statements.

extern "C" and namespace blocks are transparent (their statements are top-level, with the namespace recorded);
other bodies are kept aside as token spans for the classifier. Macros that declare names when invoked
(``DECLARATOR_MACROS``) are statements of their own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from .tokens import Lexed, Token, closing
from .vocabulary import AGGREGATE

# Macros that end a declaration in place of ';' (CUDA's intrinsic headers: `unsigned __ballot_sync(...) __DEF_IF_HOST`
# expands to a body on the host and to ';' on the device).
STATEMENT_END_MACROS = frozenset({"__DEF_IF_HOST"})


class Word(NamedTuple):
    """A depth-0 token of a statement; a bracket group is one word ``("group", "()")``, a body ``("body", "N")``
    (N indexes ``Statement.bodies``)."""

    kind: str
    text: str


class Group(NamedTuple):
    """A parenthesised group of a statement: its position among the words and its bracket tokens."""

    pos: int
    start: int
    end: int


@dataclass(frozen=True)
class Statement:
    start: int  # index of its first token
    words: list[Word]
    bodies: list[tuple[int, int]]  # brace-enclosed bodies: (open, close) token indexes
    groups: list[Group]
    is_definition: bool  # a function definition: its body is the last of ``bodies``
    namespace: str  # enclosing C++ namespace, '::'-joined
    doc: str  # the comment right before it
    guards: tuple[str, ...]  # macros of the plain `#ifdef X` true branches enclosing it


@dataclass(frozen=True)
class DeclaratorUse:
    """A top-level invocation of a macro that declares names: ``DEFINE_HIPRAND_STATE(hiprandState, ...);``."""

    macro: str
    args: list[str]
    namespace: str
    guards: tuple[str, ...]


_NAMESPACE_MACRO = re.compile(r"(?=\w*NAMESPACE)[A-Z0-9_]*(?:BEGIN|END)[A-Z0-9_]*")


class _Splitter:
    def __init__(self, lexed: Lexed, declarators: frozenset[str]) -> None:
        self.lexed = lexed
        self.declarators = declarators
        self.toks: list[Token] = lexed.tokens
        self.ns: list[str] = []
        self.last_comment = 0

    def doc(self, i: int) -> str:
        """The doc comment of the statement starting at token ``i``."""
        comments = self.lexed.comments
        upto = self.toks[i].comments_before if i < len(self.toks) else len(comments)
        # only the comment right before the declaration: group comments (@defgroup) describe a whole section
        return comments[upto - 1] if upto > self.last_comment else ""

    def run(self) -> Iterator[Statement | DeclaratorUse]:
        toks = self.toks
        scopes: list[str | None] = []
        i = 0
        while i < len(toks):
            t = toks[i].text
            if t == "extern" and i + 2 < len(toks) and toks[i + 1].text == '"C"' and toks[i + 2].text == "{":
                scopes.append(None)
                i += 3
                continue
            if t == "namespace":
                j = i + 1
                name: list[str] = []
                while j < len(toks) and toks[j].text not in ("{", ";", "="):
                    if toks[j].kind == "ident":
                        name.append(toks[j].text)
                    j += 1
                if j < len(toks) and toks[j].text == "{":
                    scopes.append("::".join(name))
                    self.ns.append("::".join(name))
                    i = j + 1
                    continue
                i = self.skip_to_semicolon(j)
                continue
            if t == "}":
                if scopes and scopes.pop() is not None and self.ns:
                    self.ns.pop()
                i += 1
                continue
            if t == ";" or self.namespace_macro(i):
                i += 1
                continue
            if t in self.declarators and i + 1 < len(toks) and toks[i + 1].text == "(":
                use, i = self.declarator_use(i)
                yield use
                continue
            statement, i = self.statement(i)
            if statement is not None:
                yield statement

    def namespace_macro(self, i: int) -> bool:
        """A macro opening or closing a namespace (``BEGIN_HIPCUB_NAMESPACE``, ``CUB_NAMESPACE_END``) stands alone:
        it is no word of the declaration after it (the prefix given to build_index names the namespace)."""
        token = self.toks[i]
        if token.kind != "ident" or not _NAMESPACE_MACRO.fullmatch(token.text):
            return False
        after = self.toks[i + 1].text if i + 1 < len(self.toks) else ""
        return after not in ("(", "::", "=", ";", ",", ")")

    def guards(self, i: int) -> tuple[str, ...]:
        return self.lexed.guards[i] if i < len(self.lexed.guards) else ()

    def opens_scope(self, i: int) -> bool:
        toks = self.toks
        if toks[i].text == "extern":
            return i + 2 < len(toks) and toks[i + 1].text == '"C"' and toks[i + 2].text == "{"
        return (
            toks[i].text == "namespace"
            and i + 1 < len(toks)
            and (toks[i + 1].kind == "ident" or toks[i + 1].text == "{")
        )

    def skip_to_semicolon(self, j: int) -> int:
        while j < len(self.toks) and self.toks[j].text != ";":
            if self.toks[j].text == "{":
                j = closing(self.toks, j, "{", "}")
            j += 1
        return j + 1

    def statement(self, i: int) -> tuple[Statement | None, int]:
        """The top-level statement starting at ``i`` (None when it has no words) and the index after it."""
        toks = self.toks
        start = i
        words: list[Word] = []  # depth-0 tokens; bodies are kept aside
        bodies: list[tuple[int, int]] = []
        groups: list[Group] = []
        is_definition = False
        while i < len(toks):
            kind, t, _ = toks[i]
            if t == ";" or t in STATEMENT_END_MACROS:
                i += 1
                break
            if t == "}":
                break  # a stray close: let the caller pop the scope
            if i > start and self.opens_scope(i):
                break  # leftovers of a broken macro line must not swallow an extern "C"/namespace block
            if t == "(":
                end = closing(toks, i, "(", ")")
                groups.append(Group(len(words), i, end))
                words.append(Word("group", "()"))
                i = end + 1
                continue
            if t == "[":
                end = closing(toks, i, "[", "]")
                words.append(Word("group", "[]"))
                i = end + 1
                continue
            if t == "{":
                end = closing(toks, i, "{", "}")
                if _opens_function_body(words, groups):
                    is_definition = True
                    bodies.append((i, end))
                    i = end + 1
                    break
                bodies.append((i, end))
                words.append(Word("body", str(len(bodies) - 1)))
                i = end + 1
                continue
            words.append(Word(kind, t))
            i += 1
        statement = None
        if words:
            statement = Statement(
                start,
                words,
                bodies,
                groups,
                is_definition,
                "::".join(self.ns),
                self.doc(start),
                self.guards(start),
            )
        self.last_comment = toks[i - 1].comments_before if 0 < i <= len(toks) else self.last_comment
        return statement, (i if i > start else start + 1)

    def declarator_use(self, i: int) -> tuple[DeclaratorUse, int]:
        end = closing(self.toks, i + 1, "(", ")")
        args: list[str] = [""]
        depth = 0
        for tok in self.toks[i + 2 : end]:
            t = tok.text
            if t in "([{":
                depth += 1
            elif t in ")]}":
                depth -= 1
            if t == "," and depth == 0:
                args.append("")
            else:
                args[-1] = f"{args[-1]} {t}".strip()
        use = DeclaratorUse(self.toks[i].text, args, "::".join(self.ns), self.guards(i))
        end += 1
        return use, (end + 1 if end < len(self.toks) and self.toks[end].text == ";" else end)


def _opens_function_body(words: list[Word], groups: list[Group]) -> bool:
    """Whether a '{' after ``words`` opens a function's body (not an aggregate's or an initialiser's)."""
    texts = [w.text for w in words]
    aggregate = any(w in AGGREGATE for w in texts) and (
        not groups or texts.index(next(w for w in texts if w in AGGREGATE)) > groups[-1].pos or "typedef" in texts
    )
    return not aggregate and bool(texts) and texts[-1] != "=" and bool(groups)


def statements(lexed: Lexed, declarators: frozenset[str] = frozenset()) -> Iterator[Statement | DeclaratorUse]:
    """The top-level statements; invocations of the ``declarators`` macros come as ``DeclaratorUse``."""
    return _Splitter(lexed, declarators).run()
