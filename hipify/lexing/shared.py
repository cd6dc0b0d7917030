"""One lex per file and run: a lexing kept in the process from the project scan to the file's translation.

The project scan and the translation read the same text, lexed the same way. The scan keeps its
:class:`Lexed` here (:func:`lex_kept`), under the text itself (a ``str`` key: its hash is computed once and
kept by the string; a lookup compares contents only on a hash match); the translation takes it back
(:func:`take`), so a file is lexed once. The run hands a file's translation to the worker process that
scanned it (``hipify.machinery.supervise``: jobs with a home). What is kept is bounded: the oldest go first.
"""

from __future__ import annotations

from collections import OrderedDict

from .lexer import Lexed, lex

MAX_KEPT_CHARS = 48 << 20  # text kept at most, in characters (a lexing holds about three times its text)

_kept: OrderedDict[str, Lexed] = OrderedDict()
_kept_chars = 0


def lex_kept(text: str) -> Lexed:
    """``lex(text)``, kept for the translation of the same text in this process."""
    global _kept_chars
    found = _kept.get(text)
    if found is not None:
        return found
    lexed = lex(text)
    if len(text) <= MAX_KEPT_CHARS:
        _kept[text] = lexed
        _kept_chars += len(text)
        while _kept_chars > MAX_KEPT_CHARS:
            oldest, _ = _kept.popitem(last=False)
            _kept_chars -= len(oldest)
    return lexed


def take(text: str) -> Lexed:
    """The lexing of ``text``: the one kept by the scan (no longer kept), else a fresh one (not kept)."""
    global _kept_chars
    found = _kept.pop(text, None)
    if found is None:
        return lex(text)
    _kept_chars -= len(text)
    return found


def is_kept(text: str) -> bool:
    return text in _kept


def clear() -> None:
    global _kept_chars
    _kept.clear()
    _kept_chars = 0
