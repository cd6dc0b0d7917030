"""What the declaration scanner finds in one header: declarations, conversion-switch pairs, the include guard."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Decl:
    name: str
    kind: str  # function, type, enum, enum_constant, macro, variable
    parent: str = ""  # enum of a constant
    namespace: str = ""  # enclosing C++ namespace, '::'-joined
    deprecated: bool = False
    experimental: bool = False
    beta: bool = False
    alias_of: str = ""  # typedef X NAME / #define NAME X: the single name it stands for
    calls: tuple[str, ...] = ()  # names called in an inline function's body (wrapper detection)
    forwards: str = ""  # the callee of a body that only passes the parameters on: `{ return g(a, b); }`
    params: int = -1  # parameter count of a function (-1 unknown / variadic)
    param_names: tuple[str, ...] = ()
    param_types: tuple[str, ...] = ()  # base type and pointer depth of each parameter ('' when not plain)
    param_defaults: tuple[str, ...] = ()  # each parameter's default argument ('' for none); () when none has one
    # The parameter types spelled as lexing.parameters spells them (None when one is not a plain type).
    exact_param_types: tuple[str, ...] | None = None
    defined: bool = False  # function with a body
    value: str = ""  # an enum constant's integer value, when it is a literal
    replacement: str = ""  # the successor a deprecation names: HIP_DEPRECATED("use hipHostMalloc instead")
    expansion: str = ""  # a macro's replacement text (one #if branch's definition)
    guards: tuple[str, ...] = ()  # macros whose `#ifdef X` true branch encloses the declaration
    template_params: tuple[str, ...] = ()  # type parameters of a function template
    tag: bool = False  # a struct/class/union/enum tag (`struct hipArray`), not a typedef name


@dataclass(frozen=True)
class HeaderScan:
    decls: tuple[Decl, ...] = ()
    case_pairs: tuple[tuple[str, str], ...] = ()  # `case A: return B;`
    include_guard: str = ""
    migration_pairs: tuple[tuple[str, str], ...] = ()  # `case A: *out = c ? X : B;`
