"""Facts about the C and C++ languages that several parts of hipify need (one list each)."""

from __future__ import annotations

import re

# C++ keywords and fundamental types: never API names, whatever a table row says (a header
# scanner can mistake ``operator int()`` for a function called ``int``), never declarable.
CPP_KEYWORDS = frozenset(
    (
        "alignas",
        "alignof",
        "and",
        "and_eq",
        "asm",
        "auto",
        "bitand",
        "bitor",
        "bool",
        "break",
        "case",
        "catch",
        "char",
        "char16_t",
        "char32_t",
        "char8_t",
        "class",
        "co_await",
        "co_return",
        "co_yield",
        "compl",
        "concept",
        "const",
        "const_cast",
        "consteval",
        "constexpr",
        "constinit",
        "continue",
        "decltype",
        "default",
        "delete",
        "do",
        "double",
        "dynamic_cast",
        "else",
        "enum",
        "explicit",
        "export",
        "extern",
        "false",
        "float",
        "for",
        "friend",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "mutable",
        "namespace",
        "new",
        "noexcept",
        "not",
        "not_eq",
        "nullptr",
        "operator",
        "or",
        "or_eq",
        "private",
        "protected",
        "public",
        "register",
        "reinterpret_cast",
        "requires",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "static_assert",
        "static_cast",
        "struct",
        "switch",
        "template",
        "this",
        "thread_local",
        "throw",
        "true",
        "try",
        "typedef",
        "typeid",
        "typename",
        "union",
        "unsigned",
        "using",
        "virtual",
        "void",
        "volatile",
        "wchar_t",
        "while",
        "xor",
        "xor_eq",
    )
)

# C keywords that C++ lacks: a C header may use them, a declaration cannot take the name.
C_ONLY_KEYWORDS = frozenset(("restrict", "_Bool", "_Complex"))

# Identifiers the compiler itself defines or reserves (predefined macros, __func__, ...).
PREDEFINED_NAMES = frozenset(
    (
        "__CUDACC__",
        "__CUDA_ARCH__",
        "__DATE__",
        "__FILE__",
        "__FUNCTION__",
        "__LINE__",
        "__NVCC__",
        "__PRETTY_FUNCTION__",
        "__TIME__",
        "__attribute__",
        "__cplusplus",
        "__func__",
        "__restrict",
    )
)

# Names no declaration may take (the prelude never declares them).
RESERVED_NAMES = CPP_KEYWORDS | C_ONLY_KEYWORDS | PREDEFINED_NAMES

# How the HIP side spells its names: HIP itself, its math libraries (hipBLAS, rocBLAS, ...), MIOpen and RCCL.
_HIP_SPELLING = re.compile(r"(?:__)?(?:hip|HIP|roc|ROC|miopen|MIOPEN|rccl|RCCL)(?:[A-Z_0-9]|[a-z]+[A-Z_])\w*")


def is_hip_spelling(name: str) -> bool:
    """Does ``name`` look like a HIP-side name (``hipStream_t``, ``HIPBLAS_OP_N``, ``__hip_bfloat16``,
    ``rocblas_handle``)? A project's ``#define cudaStream_t hipStream_t`` is its own HIP build's alias, not a
    declaration of a CUDA name of its own."""
    return _HIP_SPELLING.match(name) is not None


# A call of a function of C's <string.h> (``memcpy(``, ``std::strlen(``; not a member's ``.memcpy(``), which CUDA's
# runtime header declares (cuda_runtime.h includes it through crt/common_functions.h) and code often calls without
# including it.
STRING_H_CALL = re.compile(
    r"(?<![\w.>])(?:memcpy|memset|memmove|memcmp|memchr|strlen|strcmp|strncmp|strcpy|strncpy|strcat|strncat|strchr"
    r"|strrchr|strstr|strspn|strcspn|strpbrk|strtok|strdup|strndup|strerror|strcoll|strxfrm)\s*\("
)
# The same without the look-behind: Python's ``re`` skips to a candidate only when a pattern starts with its literals.
_STRING_H_CANDIDATE = re.compile(STRING_H_CALL.pattern.removeprefix(r"(?<![\w.>])"))


def calls_string_h(text: str) -> bool:
    """``STRING_H_CALL.search(text)``, found from each candidate name (a name inside another name or a member is
    rejected; the next candidate starts after it, where no such name can start)."""
    for m in _STRING_H_CANDIDATE.finditer(text):
        before = text[m.start() - 1] if m.start() else " "
        if not (before.isalnum() or before in "_.>"):
            return True
    return False


STRING_H_HEADERS = frozenset(("cstring", "string.h", "strings.h"))
