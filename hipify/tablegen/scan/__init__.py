"""A declaration scanner for C/C++ vendor headers.

Real CUDA and ROCm headers defeat pycparser (GNU attributes, C++ classes, templates, macros that expand to
storage classes), and a full parse would need every configuration of their #if blocks. We only need the *names*
the headers declare (and the plain shape of function parameters), so a token scanner suffices. The steps, one
module each: ``tokens`` lexes every #if branch (the union of all configurations); ``macros`` reads #define lines
and the include guard; ``statements`` splits the code into top-level statements, treating extern "C" and
namespace blocks as transparent; ``classify`` says what each statement declares (function, typedef, enum with
its constants, struct/class, alias, variable); ``cases`` collects conversion- and migration-switch pairs.
"""

from __future__ import annotations

from dataclasses import replace

from .cases import case_pairs, migration_pairs
from .classify import declared
from .decl import Decl, HeaderScan
from .macros import declaring_macros, expand, include_guard, macro_decls
from .statements import DeclaratorUse, Statement, statements
from .tokens import lex

__all__ = ["Decl", "HeaderScan", "scan_text"]


def scan_text(text: str) -> HeaderScan:
    lexed = lex(text)
    decls = macro_decls(lexed.directives)
    declaring = declaring_macros(lexed.directives)
    for st in statements(lexed, frozenset(declaring)):
        if isinstance(st, DeclaratorUse):
            found = _expanded(expand(*declaring[st.macro], st.args), st.namespace)
        else:
            found = declared(st, lexed.tokens)
        if st.guards:
            found = [replace(d, guards=st.guards) for d in found]
        decls += found
    return HeaderScan(
        tuple(decls),
        tuple(case_pairs(lexed.tokens)),
        include_guard(lexed.directives),
        tuple(migration_pairs(lexed.tokens)),
    )


def _expanded(text: str, namespace: str) -> list[Decl]:
    """What a declaring macro's expansion declares (one level: macros it invokes are not expanded again)."""
    lexed = lex(text)
    found = [d for st in statements(lexed) if isinstance(st, Statement) for d in declared(st, lexed.tokens)]
    return [replace(d, namespace=namespace) if namespace else d for d in found]
