"""Word lists of the declaration scanner: what is never a declared name, what qualifies a type."""

from __future__ import annotations

import re

from ...knowledge.cxx import CPP_KEYWORDS

# Identifiers before a '(' that are never the declared function's name: keywords (`int(x)` is a
# functional cast, `if (` a statement), attributes and compiler built-ins.
NOT_A_NAME = CPP_KEYWORDS | frozenset(
    {
        "_Alignas",
        "_Pragma",
        "__align__",
        "__asm",
        "__asm__",
        "__attribute__",
        "__builtin_align__",
        "__declspec",
        "__forceinline__",
        "__launch_bounds__",
        "__noinline__",
        "__nv_register_params__",
        "__pragma",
        "__typeof__",
        "defined",
        "typeof",
    }
)
MACROISH = re.compile(r"^_*[A-Z][A-Z0-9_]*$")
AGGREGATE = frozenset({"enum", "struct", "class", "union"})
# Words of a typedef that are not the declared name.
TYPE_WORDS = frozenset(
    {
        "const",
        "volatile",
        "struct",
        "enum",
        "union",
        "class",
        "unsigned",
        "signed",
        "typename",
        "typedef",
    }
)
# Words of a parameter that are not its type's name.
QUALIFIERS = frozenset(
    {"const", "volatile", "struct", "enum", "union", "class", "typename", "restrict", "__restrict__", "__restrict"}
)
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
