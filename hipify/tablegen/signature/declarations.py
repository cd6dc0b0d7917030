"""Function signatures and function-name macros read from a libclang parse."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import clang.cindex as ci

_SCOPES = (ci.CursorKind.LINKAGE_SPEC, ci.CursorKind.UNEXPOSED_DECL)


def _name_unknown_type_kinds(upto: int = 256) -> None:
    """The 18.1.1 bindings lack type kinds libclang 18 reports (_Float16 is 32) and raise on reading them; give
    them generic names (only their spelling matters here)."""
    known = ci.TypeKind._kinds
    for value in range(upto):
        if value >= len(known) or known[value] is None:
            setattr(ci.TypeKind, f"KIND_{value}", ci.TypeKind(value))


_name_unknown_type_kinds()


@dataclass(frozen=True)
class Signature:
    """A function type: parameter and result types, as written and canonical (typedefs resolved, arrays decayed,
    top-level const dropped)."""

    result: str
    params: tuple[str, ...]
    canonical_result: str
    canonical_params: tuple[str, ...]
    variadic: bool
    required: int  # parameters without a default argument
    names: tuple[str, ...] = ()  # parameter names ('' when unnamed)

    def canonical(self) -> tuple[str, tuple[str, ...], bool]:
        return self.canonical_result, self.canonical_params, self.variadic


@dataclass(frozen=True)
class Declared:
    header: str  # the declaring file's path
    signature: Signature


def _strip(spelling: str) -> str:
    return spelling.removesuffix(" noexcept")


def signature_of_type(written: ci.Type) -> Signature:
    """The signature of a function type (``using F = R(P...)``)."""
    canon = written.get_canonical()
    return Signature(
        result=written.get_result().spelling,
        params=tuple(t.spelling for t in written.argument_types()),
        canonical_result=canon.get_result().spelling,
        canonical_params=tuple(_strip(t.spelling) for t in canon.argument_types()),
        variadic=canon.is_function_variadic(),
        required=len(canon.argument_types()),
    )


def _signature_of_function(cursor: ci.Cursor) -> Signature | None:
    canon = cursor.type.get_canonical()
    if canon.kind != ci.TypeKind.FUNCTIONPROTO:
        return None
    args = list(cursor.get_arguments())
    return Signature(
        result=cursor.result_type.spelling,
        params=tuple(a.type.spelling for a in args),
        canonical_result=canon.get_result().spelling,
        canonical_params=tuple(_strip(t.spelling) for t in canon.argument_types()),
        variadic=canon.is_function_variadic(),
        names=tuple(a.spelling for a in args),
        required=sum(1 for a in args if not any(c.kind.is_expression() for c in a.get_children())),
    )


@dataclass(frozen=True)
class Declarations:
    functions: dict[str, list[Declared]]  # name -> overloads (function templates excluded)
    aliases: dict[str, str]  # object-like macro naming one identifier: `#define cuMemAlloc cuMemAlloc_v2`
    templates: frozenset[str] = frozenset()  # names declared as function templates

    def resolve(self, name: str) -> str:
        """The function a name stands for after macro expansion (one level per alias)."""
        seen = {name}
        while name in self.aliases and name not in self.functions:
            name = self.aliases[name]
            if name in seen:
                break
            seen.add(name)
        return name

    def overloads(self, name: str) -> list[Declared]:
        return self.functions.get(self.resolve(name), [])


def read_declarations(tu: ci.TranslationUnit) -> Declarations:
    functions: dict[str, list[Declared]] = defaultdict(list)
    aliases: dict[str, str] = {}
    templates: set[str] = set()
    pending = list(tu.cursor.get_children())
    while pending:
        cursor = pending.pop()
        kind = cursor.kind
        if kind in _SCOPES:
            pending.extend(cursor.get_children())
        elif kind == ci.CursorKind.FUNCTION_DECL:
            sig = _signature_of_function(cursor)
            if sig is not None and cursor.location.file is not None:
                functions[cursor.spelling].append(Declared(cursor.location.file.name, sig))
        elif kind == ci.CursorKind.FUNCTION_TEMPLATE:
            templates.add(cursor.spelling)
        elif kind == ci.CursorKind.MACRO_DEFINITION:
            tokens = [t.spelling for t in cursor.get_tokens()]
            # `#define NAME OTHER`, or `#define NAME WRAP(OTHER)` where WRAP selects a variant (cuda.h's
            # __CUDA_API_PTDS(cuMemcpyDtoH_v2): the per-thread default stream form only when asked for)
            if len(tokens) == 2 and tokens[1].isidentifier():
                aliases[tokens[0]] = tokens[1]
            elif len(tokens) == 5 and tokens[2] == "(" and tokens[4] == ")" and tokens[3].isidentifier():
                aliases[tokens[0]] = tokens[3]
    return Declarations(_unique(functions), aliases, frozenset(templates))


def _unique(functions: dict[str, list[Declared]]) -> dict[str, list[Declared]]:
    """Redeclarations of one function (a prototype and its definition) count once."""
    out: dict[str, list[Declared]] = {}
    for name, decls in functions.items():
        seen: dict[tuple[str, tuple[str, ...], bool], Declared] = {}
        for d in reversed(decls):  # children were popped from the end: restore file order
            seen.setdefault(d.signature.canonical(), d)
        out[name] = list(seen.values())
    return out


def alias_signatures(tu: ci.TranslationUnit, main: str, prefix: str) -> dict[str, Signature]:
    """Signatures of the main file's function-type aliases named ``<prefix>N``."""
    out: dict[str, Signature] = {}
    for cursor in tu.cursor.get_children():
        if (
            cursor.kind == ci.CursorKind.TYPE_ALIAS_DECL
            and cursor.spelling.startswith(prefix)
            and cursor.location.file is not None
            and cursor.location.file.name == main
        ):
            underlying = cursor.underlying_typedef_type
            if underlying.get_canonical().kind == ci.TypeKind.FUNCTIONPROTO:
                out[cursor.spelling] = signature_of_type(underlying)
    return out
