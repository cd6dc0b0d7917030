"""One lex per file and run: a lexing kept in the process from the project scan to the file's translation.

The project scan and the translation read the same text, lexed the same way. The scan keeps its
:class:`Lexed` here (:func:`lex_kept`), under the text itself (a ``str`` key: its hash is computed once and
kept by the string; a lookup compares contents only on a hash match); the translation takes it back
(:func:`take`), so a file is lexed once. The run hands a file's translation to the worker process that
scanned it (``hipify.machinery.supervise``: jobs with a home). What is kept is bounded: the oldest go first.
"""

from __future__ import annotations

from ..machinery.kept import KeptValues
from .declarations import clear_kept as clear_kept_declarations
from .lexer import Lexed, lex

MAX_KEPT_CHARS = 48 << 20  # text kept at most, in characters (a lexing holds about three times its text)

_kept: KeptValues[str, Lexed] = KeptValues(MAX_KEPT_CHARS)


def lex_kept(text: str) -> Lexed:
    """``lex(text)``, kept for the translation of the same text in this process."""
    found = _kept.get(text)
    if found is None:
        found = lex(text)
        _kept.put(text, found, len(text))
    return found


def take(text: str) -> Lexed:
    """The lexing of ``text``: the one kept by the scan (no longer kept), else a fresh one (not kept)."""
    found = _kept.pop(text)
    found = found if found is not None else lex(text)
    _last_taken[:] = [(text, found)]
    return found


# The last lexing :func:`take` returned, with its text: the translation's own checks read the same text again.
_last_taken: list[tuple[str, Lexed]] = []


def lexing_of(text: str) -> Lexed:
    """The lexing of ``text``: the one :func:`take` returned last when it was for this very ``str`` object (the
    file being translated), else a fresh one."""
    if _last_taken and _last_taken[0][0] is text:
        return _last_taken[0][1]
    return lex(text)


def is_kept(text: str) -> bool:
    return text in _kept


def clear() -> None:
    """Forget what the scan kept for the translations: lexings, and the declarations read from them."""
    _kept.clear()
    _last_taken.clear()
    clear_kept_declarations()
