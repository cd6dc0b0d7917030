"""A declaration scanner for C/C++ vendor headers.

Real CUDA and ROCm headers defeat pycparser (GNU attributes, C++ classes, templates, macros that expand to
storage classes), and a full parse would need every configuration of their #if blocks. We only need the *names*
the headers declare (and the plain shape of function parameters), so a token scanner suffices. The steps, one
module each: ``tokens`` lexes every #if branch (the union of all configurations); ``macros`` reads #define lines
and the include guard; ``statements`` splits the code into top-level statements, treating extern "C" and
namespace blocks as transparent; ``classify`` says what each statement declares (function, typedef, enum with
its constants, struct/class, alias, variable); ``cases`` collects conversion-switch pairs.
"""

from __future__ import annotations

from dataclasses import replace

from .cases import case_pairs
from .classify import declarator_decls, declared
from .decl import Decl, HeaderScan
from .macros import include_guard, macro_decls
from .statements import DeclaratorUse, statements
from .tokens import lex

__all__ = ["Decl", "HeaderScan", "scan_text"]


def scan_text(text: str) -> HeaderScan:
    lexed = lex(text)
    decls = macro_decls(lexed.directives)
    for st in statements(lexed):
        found = declarator_decls(st) if isinstance(st, DeclaratorUse) else declared(st, lexed.tokens)
        if st.guards:
            found = [replace(d, guards=st.guards) for d in found]
        decls += found
    return HeaderScan(tuple(decls), tuple(case_pairs(lexed.tokens)), include_guard(lexed.directives))
