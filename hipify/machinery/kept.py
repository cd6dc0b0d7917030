"""Values a worker keeps from one job for a later job of the same file (jobs with a home go back to it).

The project scan's reading and lexing of a file are kept in the worker for the file's translation; what is kept is
bounded by a size the caller gives each value, and the oldest go first.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class KeptValues(Generic[K, V]):
    """At most ``limit`` (in the sizes given to :meth:`put`) of values, by key, oldest dropped first."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._values: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._size = 0

    def put(self, key: K, value: V, size: int) -> None:
        """Keep ``value`` (one larger than the whole limit is not kept)."""
        self.pop(key)
        if size > self.limit:
            return
        self._values[key] = (value, size)
        self._size += size
        while self._size > self.limit:
            self.pop(next(iter(self._values)))

    def get(self, key: K) -> V | None:
        found = self._values.get(key)
        return found[0] if found is not None else None

    def pop(self, key: K) -> V | None:
        """The value kept under ``key``, no longer kept."""
        found = self._values.pop(key, None)
        if found is None:
            return None
        self._size -= found[1]
        return found[0]

    def clear(self) -> None:
        self._values.clear()
        self._size = 0

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def __iter__(self) -> Iterator[K]:
        return iter(self._values)
