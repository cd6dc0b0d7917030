"""libclang entry points the 18.1.1 Python bindings lack or make slow.

- whole-file tokens with ONE ``clang_annotateTokens`` call (``Token.cursor`` annotates
  one token per call, re-walking the AST each time);
- ``clang_getAllSkippedRanges`` (inactive ``#if`` branches), which the bindings omit.
Offsets here are *byte* offsets into the main file; callers convert to characters.
"""
from __future__ import annotations

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
    lib.clang_getAllSkippedRanges.restype = ctypes.POINTER(_SkippedRangeList)
    lib.clang_getAllSkippedRanges.argtypes = [ci.TranslationUnit]
    lib.clang_disposeSourceRangeList.argtypes = [ctypes.POINTER(_SkippedRangeList)]
    lib.clang_disposeSourceRangeList.restype = None
    return lib


@dataclass
class TokenStream:
    """Parallel lists over the main file's tokens (kept as lists: thousands per file)."""

    kinds: list[int]
    spellings: list[str]
    starts: list[int]           # byte offsets
    cursors: Any                # ctypes array of ci.Cursor, one per token
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
    """Every token of the main file (active, inactive, directives, comments), annotated once."""
    lib = _lib()
    extent = tu.get_extent(path, (0, size))
    memory = ctypes.POINTER(ci.Token)()
    count = ctypes.c_uint()
    lib.clang_tokenize(tu, extent, ctypes.byref(memory), ctypes.byref(count))
    n = count.value
    cursors = (ci.Cursor * max(n, 1))()
    kinds: list[int] = []
    spellings: list[str] = []
    starts: list[int] = []
    if n:
        try:
            lib.clang_annotateTokens(tu, memory, n, cursors)
            get_kind, get_spelling, get_location = lib.clang_getTokenKind, lib.clang_getTokenSpelling, lib.clang_getTokenLocation
            for i in range(n):
                token = memory[i]
                kinds.append(get_kind(token))
                spellings.append(get_spelling(tu, token))
                starts.append(_offset(lib, get_location(tu, token)))
        finally:
            lib.clang_disposeTokens(tu, memory, n)
    return TokenStream(kinds, spellings, starts, cursors, tu)


def skipped_ranges(tu: ci.TranslationUnit, main_file: str) -> list[tuple[int, int]]:
    """Byte ranges of the main file that the preprocessor skipped, from the ``#`` of the
    opening conditional to the end of the closing one's keyword."""
    lib = _lib()
    result = lib.clang_getAllSkippedRanges(tu)
    out: list[tuple[int, int]] = []
    if not result:
        return out
    try:
        for i in range(result.contents.count):
            srange = result.contents.ranges[i]
            start, end = srange.start, srange.end
            if start.file is None or not _same_file(start.file.name, main_file):
                continue
            out.append((start.offset, end.offset))
    finally:
        lib.clang_disposeSourceRangeList(result)
    return out


def _same_file(a: str, b: str) -> bool:
    return a == b or a.replace("\\", "/") == b.replace("\\", "/")
