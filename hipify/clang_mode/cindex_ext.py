"""libclang entry points the 18.1.1 Python bindings lack or make slow.

- whole-file tokens with ONE ``clang_annotateTokens`` call (``Token.cursor`` annotates
  one token per call, re-walking the AST each time);
- ``clang_getSkippedRanges`` (inactive ``#if`` branches), which the bindings omit;
- ``clang_isInvalidDeclaration`` (a declaration the parser rejected), likewise.
Offsets here are *byte* offsets into the main file; callers convert to characters.
"""

from __future__ import annotations

import array as array_module
import ctypes
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import clang.cindex as ci

# CXTokenKind values
PUNCTUATION, KEYWORD, IDENTIFIER, LITERAL, COMMENT = range(5)


class _SkippedRangeList(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(ci.SourceRange))]


@lru_cache(maxsize=1)
def _lib() -> Any:
    lib = ci.conf.lib
    lib.clang_getSkippedRanges.restype = ctypes.POINTER(_SkippedRangeList)
    lib.clang_getSkippedRanges.argtypes = [ci.TranslationUnit, ci.File]
    lib.clang_disposeSourceRangeList.argtypes = [ctypes.POINTER(_SkippedRangeList)]
    lib.clang_disposeSourceRangeList.restype = None
    lib.clang_isInvalidDeclaration.argtypes = [ci.Cursor]
    lib.clang_isInvalidDeclaration.restype = ctypes.c_uint
    return lib


def is_invalid_declaration(cursor: ci.Cursor) -> bool:
    """Did the parser reject this declaration (``cudaFree;`` read as an implicit int)?"""
    return bool(_lib().clang_isInvalidDeclaration(cursor))


@dataclass
class TokenStream:
    """Parallel lists over the main file's tokens (kept as lists: thousands per file)."""

    kinds: list[int]
    starts: list[int]  # byte offsets
    lengths: list[int]  # byte lengths
    cursors: Any  # ctypes array of ci.Cursor, one per token
    tu: ci.TranslationUnit

    def cursor(self, index: int) -> ci.Cursor:
        cursor = self.cursors[index]
        cursor._tu = self.tu  # the bindings need it to build referenced cursors
        return cursor


def _offset(lib: Any, location: ci.SourceLocation) -> int:
    offset = ctypes.c_uint()
    lib.clang_getInstantiationLocation(location, None, None, None, ctypes.byref(offset))
    return offset.value


def tokenize(tu: ci.TranslationUnit, path: str, size: int) -> TokenStream:
    """Every token of the main file (active, inactive, directives, comments), annotated once.

    Speed matters here (thousands of tokens per file). libclang fills ``CXToken.int_data`` with
    (kind, raw source location, length, 0); all tokens of one file share a base, so offsets
    come from the raw locations without a call per token. The layout is checked against the
    official accessors on sample tokens, and the slow path is used if it ever differs.
    """
    lib = _lib()
    extent = tu.get_extent(path, (0, size))
    memory = ctypes.POINTER(ci.Token)()
    count = ctypes.c_uint()
    lib.clang_tokenize(tu, extent, ctypes.byref(memory), ctypes.byref(count))
    n = count.value
    cursors = (ci.Cursor * max(n, 1))()
    if not n:
        return TokenStream([], [], [], cursors, tu)
    try:
        lib.clang_annotateTokens(tu, memory, n, cursors)
        array = ctypes.cast(memory, ctypes.POINTER(ci.Token * n)).contents
        fields = _token_fields(lib, tu, array, n)
        if fields is not None:
            kinds, starts, lengths = fields
        else:  # pragma: no cover - a libclang with another token layout
            kinds = [lib.clang_getTokenKind(t) for t in array]
            starts = [_offset(lib, lib.clang_getTokenLocation(tu, t)) for t in array]
            lengths = [len(lib.clang_getTokenSpelling(tu, t).encode("utf-8", "surrogatepass")) for t in array]
    finally:
        lib.clang_disposeTokens(tu, memory, n)
    return TokenStream(kinds, starts, lengths, cursors, tu)


def _token_fields(lib: Any, tu: ci.TranslationUnit, tokens: Any, n: int) -> tuple[list[int], ...] | None:
    """(kinds, starts, lengths) read from the tokens' ``int_data``, or None where the layout is not as expected."""
    words = _int_words(tokens, n)
    if words is None:
        return None  # pragma: no cover - bindings or a platform with another layout
    stride = len(words) // n
    data = {i: tuple(words[i * stride : i * stride + 4]) for i in {0, n // 2, n - 1}}
    base = data[0][1] - _offset(lib, lib.clang_getTokenLocation(tu, tokens[0]))
    if not all(_layout_ok(lib, tu, tokens[i], data[i], base) for i in data):
        return None  # pragma: no cover - a libclang with another token layout
    return words[0::stride].tolist(), [start - base for start in words[1::stride]], words[2::stride].tolist()


def _int_words(tokens: Any, n: int) -> array_module.array[int] | None:
    """The tokens' memory as unsigned ints, copied in one piece: token i's ``int_data`` are the first four of its
    ``len // n`` ints (``int_data`` is the first field). Reading ``tuple(token.int_data)`` token by token made a
    Python object per token and cost more than libclang's own annotation. None where the structure is not laid
    out so (the per-token accessors are used then)."""
    size = ctypes.sizeof(ci.Token)
    itemsize = ctypes.sizeof(ctypes.c_uint)
    if ci.Token._fields_[0][0] != "int_data" or size % itemsize or array_module.array("I").itemsize != itemsize:
        return None  # pragma: no cover - bindings or a platform with another layout
    words = array_module.array("I")
    words.frombytes(ctypes.string_at(ctypes.addressof(tokens), size * n))
    return words


def _layout_ok(lib: Any, tu: ci.TranslationUnit, token: ci.Token, data: tuple[int, ...], base: int) -> bool:
    return data[0] == lib.clang_getTokenKind(token) and data[1] - base == _offset(
        lib, lib.clang_getTokenLocation(tu, token)
    )


def skipped_ranges(tu: ci.TranslationUnit, main_file: str) -> list[tuple[int, int]]:
    """Byte ranges of the main file that the preprocessor skipped, from the ``#`` of the
    opening conditional to the end of the closing one's keyword. Asked for the main file
    only: the headers' ranges number in the thousands."""
    lib = _lib()
    file = tu.get_file(main_file)
    result = lib.clang_getSkippedRanges(tu, file)
    out: list[tuple[int, int]] = []
    if not result:
        return out
    try:
        for i in range(result.contents.count):
            srange = result.contents.ranges[i]
            out.append((_offset(lib, srange.start), _offset(lib, srange.end)))
    finally:
        lib.clang_disposeSourceRangeList(result)
    return out
