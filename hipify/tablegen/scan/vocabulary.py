"""Word lists of the declaration scanner: what is never a declared name, what qualifies a type."""

from __future__ import annotations

import re

# Identifiers before a '(' that are never the declared function's name.
NOT_A_NAME = frozenset(
    {
        "__attribute__",
        "__declspec",
        "__align__",
        "alignas",
        "alignof",
        "decltype",
        "sizeof",
        "noexcept",
        "static_assert",
        "throw",
        "if",
        "while",
        "for",
        "switch",
        "return",
        "defined",
        "__launch_bounds__",
        "__asm__",
        "asm",
        "__asm",
        "_Pragma",
        "__pragma",
        "operator",
        "__builtin_align__",
        "__nv_register_params__",
        "__noinline__",
        "__forceinline__",
        "typeof",
        "__typeof__",
        "requires",
        "_Alignas",
        # Built-in type keywords: `int(x)` is a functional cast, never a declared function.
        "bool",
        "char",
        "short",
        "int",
        "long",
        "float",
        "double",
        "void",
        "signed",
        "unsigned",
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
