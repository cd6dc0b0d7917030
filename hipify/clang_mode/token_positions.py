"""Where libclang's tokens are, in a file's characters: libclang counts bytes, the translation counts characters."""

from __future__ import annotations

import bisect
import re

import clang.cindex as ci

from .cindex_ext import COMMENT, PUNCTUATION, TokenStream

_NON_ASCII = re.compile(r"[^\x00-\x7f]")


class ByteToChar:
    """libclang byte offsets -> character offsets (identity for ASCII text)."""

    def __init__(self, text: str, data: bytes) -> None:
        self._identity = len(text) == len(data)
        self._bytes: list[int] = []
        self._chars: list[int] = []
        if not self._identity:
            # Record, after each non-ASCII character, its byte and char position; between
            # them the offsets advance together, so one bisect converts.
            extra = 0
            for m in _NON_ASCII.finditer(text):
                extra += len(m.group().encode("utf-8", "surrogatepass")) - 1
                self._bytes.append(m.end() + extra)
                self._chars.append(m.end())

    def __call__(self, offset: int) -> int:
        if self._identity:
            return offset
        i = bisect.bisect_right(self._bytes, offset) - 1
        if i < 0:
            return offset
        return self._chars[i] + (offset - self._bytes[i])

    def to_byte(self, offset: int) -> int:
        """The inverse: a character offset to libclang's byte offset."""
        if self._identity:
            return offset
        i = bisect.bisect_right(self._chars, offset) - 1
        if i < 0:
            return offset
        return self._bytes[i] + (offset - self._chars[i])


class TokenPositions:
    """Find libclang tokens by character offset."""

    def __init__(self, stream: TokenStream, to_char: ByteToChar, data: bytes, text: str = "") -> None:
        self.text = text
        self.stream = stream
        self.data = data
        self.to_char = to_char
        # Keyed by byte offset: converting the few offsets we ask about is cheaper than
        # converting every token's.
        self.by_start = {start: i for i, start in enumerate(stream.starts)}

    def at(self, char_offset: int) -> int:
        """Index of the token starting at ``char_offset`` (-1 if none)."""
        return self.by_start.get(self.to_char.to_byte(char_offset), -1)

    def next_significant(self, index: int) -> int:
        kinds = self.stream.kinds
        j = index + 1
        while j < len(kinds) and kinds[j] == COMMENT:
            j += 1
        return j if j < len(kinds) else -1

    def is_punct(self, index: int, spelling: bytes) -> bool:
        """Is token ``index`` the punctuator ``spelling`` (read from the file's bytes)?"""
        start = self.stream.starts[index]
        return (
            self.stream.kinds[index] == PUNCTUATION
            and self.stream.lengths[index] == len(spelling)
            and self.data[start : start + len(spelling)] == spelling
        )

    def cursor(self, index: int) -> ci.Cursor:
        return self.stream.cursor(index)
