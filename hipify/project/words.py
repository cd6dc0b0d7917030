"""A set of words carried as one string: what a file's scan says it uses.

A scan's uses are every word of the file (thousands), and they travel from the worker that scans to the run's
process, where few are ever asked about (names declared or blocked elsewhere in the project). Pickled as a frozenset,
each word was a string object to make and hash on arrival: measured on HeCBench's CUDA half, unpickling the scans
cost the run's process 0.11 s, of which 0.1 s was the uses. Pickled as one string they cost 0.015 s, and the set is
made (0.02 ms a file) only where a question is asked.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any


class Words:
    """An immutable set of words (no word contains a blank), compared and combined as a frozenset."""

    __slots__ = ("_set", "_text")

    def __init__(self, words: Iterable[str] = ()) -> None:
        self._text = " ".join(words)
        self._set: frozenset[str] | None = None

    @classmethod
    def _of_text(cls, text: str) -> Words:
        made = cls.__new__(cls)
        made._text = text
        made._set = None
        return made

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return Words._of_text, (self._text,)  # the string only: the set is made again where it is asked for

    @property
    def set(self) -> frozenset[str]:
        found = self._set
        if found is None:
            found = self._set = frozenset(self._text.split())
        return found

    def __contains__(self, word: object) -> bool:
        return word in self.set

    def __iter__(self) -> Iterator[str]:
        return iter(self.set)

    def __len__(self) -> int:
        return len(self.set)

    def __bool__(self) -> bool:
        return bool(self._text)

    def __and__(self, other: Iterable[str]) -> frozenset[str]:
        return self.set.intersection(other)

    def __or__(self, other: Iterable[str]) -> frozenset[str]:
        return self.set.union(other)

    def union(self, *others: Iterable[str]) -> frozenset[str]:
        return self.set.union(*others)

    def isdisjoint(self, other: Iterable[str]) -> bool:
        return self.set.isdisjoint(other)

    def __ge__(self, other: Words | frozenset[str]) -> bool:
        return self.set >= _as_set(other)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Words):
            return self._text == other._text or self.set == other.set
        if isinstance(other, (set, frozenset)):
            return self.set == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.set)

    def __repr__(self) -> str:
        return f"Words({sorted(self.set)!r})"


NO_WORDS = Words()


def _as_set(words: Words | frozenset[str]) -> frozenset[str]:
    return words.set if isinstance(words, Words) else words
